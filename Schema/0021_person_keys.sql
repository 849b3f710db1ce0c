-- What the unified list needs, kept on write, so that it reads as the list
-- of cards does (docs/performance.md, One row per person).
--
-- contact.personAttributes: of a linked contact, the union of the
-- attributes of its person's cards (a bit-OR); NULL for a contact linked to
-- none, whose own `attributes` are its person's. NULL rather than a copy
-- so that a card that is never linked costs no write. Changes with the
-- person's links and its cards' attributes; it is no change of the card.
-- contact_on_personOrder, contact_on_personFirstName_desc: the heads alone
-- in the default order and in first name Z→A, each entry holding both
-- attribute columns, so that a unified page skips no card and tests a
-- person's attributes from the index as the plain page does.
-- attributeCount.personDelta: linked heads counted by their person's
-- attributes, less linked cards counted by their own; added to `count` it
-- counts people as `count` counts contacts.
-- sectionCount.nonHeads: the cards of each section that stand for no
-- person; `count - nonHeads` is its people.
-- personAttributesOf, personDeltaOf, nonHeadCountOf: the same recounted
-- from the contacts, for `doctor` and `reindex`. An attribute bit added to
-- `ContactAttributes` beyond 1 << 10 is added to the union below too.

ALTER TABLE contact ADD COLUMN personAttributes INTEGER;
ALTER TABLE attributeCount ADD COLUMN personDelta INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sectionCount ADD COLUMN nonHeads INTEGER NOT NULL DEFAULT 0;

CREATE VIEW personAttributesOf AS
    SELECT personId,
        max(attributes & 1) | max(attributes & 2) | max(attributes & 4) | max(attributes & 8)
        | max(attributes & 16) | max(attributes & 32) | max(attributes & 64) | max(attributes & 128)
        | max(attributes & 256) | max(attributes & 512) | max(attributes & 1024) AS attributes
    FROM contact WHERE personId IS NOT NULL GROUP BY personId;
CREATE VIEW personDeltaOf AS
    SELECT attributes, sum(delta) AS delta FROM (
        SELECT personAttributes AS attributes, 1 AS delta FROM contact WHERE personId IS NOT NULL AND isPersonHead = 1
        UNION ALL
        SELECT attributes, -1 FROM contact WHERE personId IS NOT NULL)
    GROUP BY attributes HAVING sum(delta) <> 0;
CREATE VIEW nonHeadCountOf AS
    SELECT sortIndex, count(*) AS count FROM contact WHERE personId IS NOT NULL AND isPersonHead = 0 GROUP BY sortIndex;

UPDATE contact SET personAttributes = person.attributes
FROM personAttributesOf AS person WHERE contact.personId = person.personId;
INSERT INTO attributeCount (attributes, count, personDelta) SELECT attributes, 0, delta FROM personDeltaOf WHERE true
    ON CONFLICT (attributes) DO UPDATE SET personDelta = excluded.personDelta;
UPDATE sectionCount SET nonHeads = heads.count FROM nonHeadCountOf AS heads WHERE sectionCount.sortIndex = heads.sortIndex;

-- The union of the people a contact left and joined; only rows whose union
-- changes are written.
CREATE TRIGGER contact_personAttributes_update AFTER UPDATE OF personId, attributes ON contact
WHEN OLD.personId IS NOT NULL OR NEW.personId IS NOT NULL
BEGIN
    UPDATE contact SET personAttributes = NULL WHERE pk = NEW.pk AND personId IS NULL AND personAttributes IS NOT NULL;
    UPDATE contact SET personAttributes = person.attributes FROM personAttributesOf AS person
    WHERE person.personId IN (OLD.personId, NEW.personId) AND contact.personId = person.personId
        AND contact.personAttributes IS NOT person.attributes;
END;

CREATE TRIGGER contact_personAttributes_insert AFTER INSERT ON contact WHEN NEW.personId IS NOT NULL
BEGIN
    UPDATE contact SET personAttributes = person.attributes FROM personAttributesOf AS person
    WHERE person.personId = NEW.personId AND contact.personId = person.personId
        AND contact.personAttributes IS NOT person.attributes;
END;

CREATE TRIGGER contact_personAttributes_delete AFTER DELETE ON contact WHEN OLD.personId IS NOT NULL
BEGIN
    UPDATE contact SET personAttributes = person.attributes FROM personAttributesOf AS person
    WHERE person.personId = OLD.personId AND contact.personId = person.personId
        AND contact.personAttributes IS NOT person.attributes;
END;

-- Each row adds to the counts what it is: a linked card -1 at its own
-- attributes, a linked head +1 at its person's, a card heading no person 1
-- to its section's nonHeads. A write takes away the old row's part and adds
-- the new one's, so the triggers above, which write rows in turn, keep the
-- counts whole in any order. Unlinked heads, nearly every contact, add
-- nothing and fire nothing.
CREATE TRIGGER contact_personCounts_insert AFTER INSERT ON contact
WHEN NEW.personId IS NOT NULL OR NEW.isPersonHead = 0
BEGIN
    INSERT INTO attributeCount (attributes, count, personDelta) SELECT NEW.attributes, 0, -1 WHERE NEW.personId IS NOT NULL
        ON CONFLICT (attributes) DO UPDATE SET personDelta = personDelta - 1;
    INSERT INTO attributeCount (attributes, count, personDelta) SELECT NEW.personAttributes, 0, 1
        WHERE NEW.personId IS NOT NULL AND NEW.isPersonHead = 1 AND NEW.personAttributes IS NOT NULL
        ON CONFLICT (attributes) DO UPDATE SET personDelta = personDelta + 1;
    INSERT INTO sectionCount (sortIndex, sectionKey, count, nonHeads) SELECT NEW.sortIndex, NEW.sectionKey, 0, 1
        WHERE NEW.isPersonHead = 0
        ON CONFLICT (sortIndex) DO UPDATE SET nonHeads = nonHeads + 1;
END;

CREATE TRIGGER contact_personCounts_delete AFTER DELETE ON contact
WHEN OLD.personId IS NOT NULL OR OLD.isPersonHead = 0
BEGIN
    UPDATE attributeCount SET personDelta = personDelta + 1 WHERE OLD.personId IS NOT NULL AND attributes = OLD.attributes;
    UPDATE attributeCount SET personDelta = personDelta - 1
    WHERE OLD.personId IS NOT NULL AND OLD.isPersonHead = 1 AND attributes = OLD.personAttributes;
    UPDATE sectionCount SET nonHeads = nonHeads - 1 WHERE OLD.isPersonHead = 0 AND sortIndex = OLD.sortIndex;
END;

CREATE TRIGGER contact_personCounts_update AFTER UPDATE OF personId, attributes, personAttributes, isPersonHead, sortIndex
ON contact
WHEN OLD.personId IS NOT NULL OR NEW.personId IS NOT NULL OR OLD.isPersonHead = 0 OR NEW.isPersonHead = 0
BEGIN
    UPDATE attributeCount SET personDelta = personDelta + 1 WHERE OLD.personId IS NOT NULL AND attributes = OLD.attributes;
    UPDATE attributeCount SET personDelta = personDelta - 1
    WHERE OLD.personId IS NOT NULL AND OLD.isPersonHead = 1 AND attributes = OLD.personAttributes;
    UPDATE sectionCount SET nonHeads = nonHeads - 1 WHERE OLD.isPersonHead = 0 AND sortIndex = OLD.sortIndex;
    INSERT INTO attributeCount (attributes, count, personDelta) SELECT NEW.attributes, 0, -1 WHERE NEW.personId IS NOT NULL
        ON CONFLICT (attributes) DO UPDATE SET personDelta = personDelta - 1;
    INSERT INTO attributeCount (attributes, count, personDelta) SELECT NEW.personAttributes, 0, 1
        WHERE NEW.personId IS NOT NULL AND NEW.isPersonHead = 1 AND NEW.personAttributes IS NOT NULL
        ON CONFLICT (attributes) DO UPDATE SET personDelta = personDelta + 1;
    INSERT INTO sectionCount (sortIndex, sectionKey, count, nonHeads) SELECT NEW.sortIndex, NEW.sectionKey, 0, 1
        WHERE NEW.isPersonHead = 0
        ON CONFLICT (sortIndex) DO UPDATE SET nonHeads = nonHeads + 1;
END;

-- The unified section index reads `nonHeads` now.
DROP INDEX contact_on_notPersonHead;
CREATE INDEX contact_on_personOrder ON contact(sortIndex, sortKey, id, personAttributes, attributes, nameWords)
    WHERE isPersonHead = 1;
CREATE INDEX contact_on_personFirstName_desc
    ON contact(firstNameKey IS NULL, firstNameKey DESC, sortKey, id, personAttributes, attributes) WHERE isPersonHead = 1;

-- A person's union is not a change of the card either.
DROP TRIGGER contact_revision_update;
CREATE TRIGGER contact_revision_update AFTER UPDATE ON contact
WHEN NEW.revision < (SELECT revision FROM changeClock)
    AND NOT (OLD.favoritePosition IS NOT NULL AND NEW.favoritePosition IS NOT NULL
             AND OLD.favoritePosition <> NEW.favoritePosition)
    AND OLD.personId IS NEW.personId AND OLD.isPersonHead = NEW.isPersonHead
    AND OLD.personAttributes IS NEW.personAttributes
BEGIN
    UPDATE contact SET revision = (SELECT revision FROM changeClock) WHERE pk = NEW.pk;
END;
