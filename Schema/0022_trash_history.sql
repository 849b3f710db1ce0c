-- Schema version 6: nothing lost, even by mistake (SPEC §Nothing lost,
-- even by mistake: trash, history, restore).
--
-- trashedContact: one row per deletion of a contact, kept for `settings
-- trash-days`. `card` is the contact's draft as the JSON format writes it
-- (groups and favorite included) without its photo, whose original bytes
-- are kept as they were stored; `bookName` names the book should it be
-- gone by the time of a restore. `favoritePosition` is its place among
-- the favorites, `linkedIds` the ids it was linked to (one per line),
-- `revision` its own when it was deleted.
-- An id may be deleted, added and deleted again: each deletion is a row,
-- and a restore takes the newest.
-- contactWrite: what each write transaction that changed contacts was
-- (`add`, `update`, `web`, `import FILE`, `sync:REMOTE`, …), by the
-- change counter it wrote, so that a version's `by` and `at` cost one row
-- per write, not per contact (an import of new contacts writes one).
-- remote.conflicts: what a sync does with a property both sides changed:
-- `merge` (as before), or `keep-both`, which keeps the local version as a
-- second contact.
-- contactVersion: one row per change of a stored contact, by the revision
-- it wrote and when: the revision it replaced and when that was written,
-- the JSON keys of the fields that changed (`fields`), and their values
-- before it (`before`, a partial contact in the JSON format, `null` for a
-- field that was not set), so that an earlier version is the current one
-- with each later `before` applied in turn. Kept for `settings
-- history-days`, at most `settings history-versions` per contact, both
-- applied to a contact's rows as it changes (by its key), so that no index
-- on `at` costs a sixth of the history's size; `compact --history-before`
-- reads the whole table.

CREATE TABLE trashedContact (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    bookId INTEGER NOT NULL,
    bookName TEXT NOT NULL,
    displayName TEXT NOT NULL,
    card TEXT NOT NULL,
    photoType TEXT,
    photo BLOB,
    favoritePosition INTEGER,
    linkedIds TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    revision INTEGER NOT NULL,
    deletedAt TEXT NOT NULL,
    deletedBy TEXT NOT NULL,
    CHECK ((photoType IS NULL) = (photo IS NULL))
);
CREATE INDEX trashedContact_on_id ON trashedContact(id, deletedAt);
CREATE INDEX trashedContact_on_deletedAt ON trashedContact(deletedAt);

CREATE TABLE contactWrite (
    revision INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    by TEXT NOT NULL
);

CREATE TABLE contactVersion (
    contactId TEXT NOT NULL,
    revision INTEGER NOT NULL,
    at TEXT NOT NULL,
    previousRevision INTEGER NOT NULL CHECK (previousRevision < revision),
    previousAt TEXT NOT NULL,
    fields TEXT NOT NULL,
    before TEXT NOT NULL,
    PRIMARY KEY (contactId, revision)
) WITHOUT ROWID;

ALTER TABLE remote ADD COLUMN conflicts TEXT NOT NULL DEFAULT 'merge' CHECK (conflicts IN ('merge', 'keep-both'));
