-- Links: one person across books (SPEC §One person across books: links).
-- Links are local: no card and no server sees them.
--
-- contact.personId: the person a linked contact is one card of; NULL for a
-- contact linked to none. Contacts of one person share it; a new link takes
-- the largest plus one, so a number is reused only when no card holds it.
-- contact.isPersonHead: 1 for a contact that stands for its person in the
-- unified list: every unlinked contact, and of a person's cards the first in
-- the default order. The unified list reads the default order's index and
-- skips the others; triggers keep it true on every write.
-- contact_on_person: a person's cards in the default order (its head, its
-- union of attributes) read from the linked contacts alone.
-- contact_on_notPersonHead: the cards the unified list skips, by section, so
-- that the unified section index is the maintained one less these.
-- contactApart: pairs of contact ids kept apart for good by `unlink`, the
-- smaller id first; no suggestion joins them again. By id, as ids survive
-- moves, merges and unmerges.
-- contactMergeLink: the ids each contact of a merge was linked to, so that
-- an unmerge puts the links back as they were.
-- contact_revision_update: a link is not a change of the card, which stays
-- as it is on its server, so setting the link columns moves no revision.

ALTER TABLE contact ADD COLUMN personId INTEGER;
ALTER TABLE contact ADD COLUMN isPersonHead INTEGER NOT NULL DEFAULT 1 CHECK (isPersonHead IN (0, 1));
CREATE INDEX contact_on_person ON contact(personId, sortIndex, sortKey, id, attributes) WHERE personId IS NOT NULL;
CREATE INDEX contact_on_notPersonHead ON contact(sortIndex) WHERE isPersonHead = 0;

CREATE TABLE contactApart (
    firstId TEXT NOT NULL,
    secondId TEXT NOT NULL,
    CHECK (firstId < secondId),
    PRIMARY KEY (firstId, secondId)
) WITHOUT ROWID;

CREATE TABLE contactMergeLink (
    mergeId INTEGER NOT NULL REFERENCES contactMerge(id) ON DELETE CASCADE,
    contactId TEXT NOT NULL,
    linkedIds TEXT NOT NULL,
    PRIMARY KEY (mergeId, contactId)
) WITHOUT ROWID;

-- The head of the people a contact left and joined, and of the person whose
-- order it changed; only rows whose head bit changes are written.
CREATE TRIGGER contact_person_update AFTER UPDATE OF personId, sortIndex, sortKey ON contact
WHEN OLD.personId IS NOT NULL OR NEW.personId IS NOT NULL
BEGIN
    UPDATE contact SET isPersonHead = 1 WHERE pk = NEW.pk AND personId IS NULL AND isPersonHead = 0;
    UPDATE contact SET isPersonHead = 1 - isPersonHead
    WHERE personId IN (OLD.personId, NEW.personId)
        AND isPersonHead <> (pk = (SELECT card.pk FROM contact AS card WHERE card.personId = contact.personId
                                   ORDER BY card.sortIndex, card.sortKey, card.id LIMIT 1));
END;

CREATE TRIGGER contact_person_insert AFTER INSERT ON contact WHEN NEW.personId IS NOT NULL
BEGIN
    UPDATE contact SET isPersonHead = 1 - isPersonHead
    WHERE personId = NEW.personId
        AND isPersonHead <> (pk = (SELECT card.pk FROM contact AS card WHERE card.personId = contact.personId
                                   ORDER BY card.sortIndex, card.sortKey, card.id LIMIT 1));
END;

-- A deleted card leaves its link; a person of one card is no link.
CREATE TRIGGER contact_person_delete AFTER DELETE ON contact WHEN OLD.personId IS NOT NULL
BEGIN
    UPDATE contact SET personId = NULL
    WHERE personId = OLD.personId AND (SELECT count(*) FROM contact WHERE personId = OLD.personId) = 1;
    UPDATE contact SET isPersonHead = 1 - isPersonHead
    WHERE personId = OLD.personId
        AND isPersonHead <> (pk = (SELECT card.pk FROM contact AS card WHERE card.personId = contact.personId
                                   ORDER BY card.sortIndex, card.sortKey, card.id LIMIT 1));
END;

DROP TRIGGER contact_revision_update;
CREATE TRIGGER contact_revision_update AFTER UPDATE ON contact
WHEN NEW.revision < (SELECT revision FROM changeClock)
    AND NOT (OLD.favoritePosition IS NOT NULL AND NEW.favoritePosition IS NOT NULL
             AND OLD.favoritePosition <> NEW.favoritePosition)
    AND OLD.personId IS NEW.personId AND OLD.isPersonHead = NEW.isPersonHead
BEGIN
    UPDATE contact SET revision = (SELECT revision FROM changeClock) WHERE pk = NEW.pk;
END;
