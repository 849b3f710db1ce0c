-- Changes and revisions: what a sync client or a live list needs to learn
-- what changed since it last looked, and what an editor needs to refuse
-- overwriting a change it has not seen.
--
-- changeClock.revision: the database-wide change counter. The engine
-- advances it once at the start of every write transaction, so that every
-- row that transaction touches carries one new value.
-- contact.revision: the counter at the contact's last change (its fields,
-- children, favorite status or group memberships).
-- contact.addedRevision: the counter when the contact was added, which
-- tells an addition from an update.
-- contactTombstone: one row per deleted contact id, until
-- `compact --changes-before` drops it; adding the id again removes it.
-- setting 'databaseIdentity': random, so that a change token names the
-- database it came from.
--
-- Rows that exist before this migration count as added at revision 1: a
-- client without a token sees them all as added. The defaults give them
-- that without rewriting a row.

CREATE TABLE changeClock (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    revision INTEGER NOT NULL
);
INSERT INTO changeClock (id, revision) VALUES (1, 1);

ALTER TABLE contact ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
ALTER TABLE contact ADD COLUMN addedRevision INTEGER NOT NULL DEFAULT 1;
CREATE INDEX contact_on_revision ON contact(revision);

CREATE TABLE contactTombstone (
    id TEXT NOT NULL PRIMARY KEY,
    revision INTEGER NOT NULL,
    addedRevision INTEGER NOT NULL,
    deletedAt TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX contactTombstone_on_revision ON contactTombstone(revision);

INSERT INTO setting (key, value) VALUES ('databaseIdentity', lower(hex(randomblob(16))));

-- The writer stamps what it writes itself (a whole contact); these catch
-- every other change, so that no write path can forget one: a favorite
-- set or cleared, memberships (group deletes cascade into them), a group
-- renamed, a migration that rewrites rows. A favorite that only moves up
-- because one before it left is not a change of that contact.
CREATE TRIGGER contact_revision_update AFTER UPDATE ON contact
WHEN NEW.revision < (SELECT revision FROM changeClock)
    AND NOT (OLD.favoritePosition IS NOT NULL AND NEW.favoritePosition IS NOT NULL
             AND OLD.favoritePosition <> NEW.favoritePosition)
BEGIN
    UPDATE contact SET revision = (SELECT revision FROM changeClock) WHERE pk = NEW.pk;
END;

CREATE TRIGGER groupMember_revision_insert AFTER INSERT ON groupMember BEGIN
    UPDATE contact SET revision = (SELECT revision FROM changeClock)
    WHERE pk = NEW.contactPk AND revision < (SELECT revision FROM changeClock);
END;

CREATE TRIGGER groupMember_revision_delete AFTER DELETE ON groupMember BEGIN
    UPDATE contact SET revision = (SELECT revision FROM changeClock)
    WHERE pk = OLD.contactPk AND revision < (SELECT revision FROM changeClock);
END;

CREATE TRIGGER contactGroup_revision_rename AFTER UPDATE OF name ON contactGroup
WHEN NEW.name IS NOT OLD.name
BEGIN
    UPDATE contact SET revision = (SELECT revision FROM changeClock)
    WHERE pk IN (SELECT contactPk FROM groupMember WHERE groupPk = NEW.pk)
        AND revision < (SELECT revision FROM changeClock);
END;

CREATE TRIGGER contact_tombstone_delete AFTER DELETE ON contact BEGIN
    INSERT OR REPLACE INTO contactTombstone (id, revision, addedRevision, deletedAt)
    VALUES (OLD.id, (SELECT revision FROM changeClock), OLD.addedRevision,
            strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;

CREATE TRIGGER contact_tombstone_insert AFTER INSERT ON contact BEGIN
    DELETE FROM contactTombstone WHERE id = NEW.id;
END;
