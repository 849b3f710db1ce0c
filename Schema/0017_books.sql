-- Schema version 5: several address books in one database (SPEC §Several
-- address books in one database).
--
-- book: every contact and group is in exactly one; one book is the
-- default, where new contacts go unless told otherwise. nameKey is the
-- name folded to lower case, so that names are unique whatever their case.
-- The upgrade puts everything into one book, named after the remote when
-- there is one, else `local`.
-- contact.bookId: its book (checked by the engine and `doctor`, as a
-- column added to a table cannot carry a reference with a default).
-- contact.uid: the card's UID where it differs from the id, which is
-- unique in the database while one UID may be in two books.
-- contact_on_uid: a card's UID found where the id is another (a group
-- card's member).
-- contact_on_book: the default order within a book, so that a book's list
-- is read from an index as the whole list is.
-- contactTombstone.bookId: the book a deleted contact was in, for the
-- changes of one book.
-- remote: one per book, by the book's id; its name is the book's. One
-- collection URL is bound to one book.
-- contactGroup: names and uids unique within their book.
-- syncedCard, syncPush, syncedGroup, syncGroupPush, syncConflict: what one
-- book's remote holds and what its syncs left, by the book's id; an href
-- names a card on that book's server only.

CREATE TABLE book (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL CHECK (name <> ''),
    nameKey TEXT NOT NULL UNIQUE,
    isDefault INTEGER NOT NULL DEFAULT 0 CHECK (isDefault IN (0, 1)),
    createdAt TEXT NOT NULL
);
CREATE UNIQUE INDEX book_on_default ON book(isDefault) WHERE isDefault = 1;

INSERT INTO book (id, name, nameKey, isDefault, createdAt)
    SELECT 1, name, lower(name), 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM (SELECT coalesce((SELECT name FROM remote), 'local') AS name);

ALTER TABLE contact ADD COLUMN bookId INTEGER NOT NULL DEFAULT 1;
ALTER TABLE contact ADD COLUMN uid TEXT;
CREATE INDEX contact_on_book ON contact(bookId, sortIndex, sortKey, id, attributes);
CREATE INDEX contact_on_uid ON contact(uid) WHERE uid IS NOT NULL;

ALTER TABLE contactTombstone ADD COLUMN bookId INTEGER NOT NULL DEFAULT 1;
DROP TRIGGER contact_tombstone_delete;
CREATE TRIGGER contact_tombstone_delete AFTER DELETE ON contact BEGIN
    INSERT OR REPLACE INTO contactTombstone (id, revision, addedRevision, deletedAt, bookId)
    VALUES (OLD.id, (SELECT revision FROM changeClock), OLD.addedRevision,
            strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), OLD.bookId);
END;

CREATE TABLE remoteOfBook (
    bookId INTEGER PRIMARY KEY REFERENCES book(id),
    url TEXT NOT NULL UNIQUE,
    username TEXT,
    passwordEnv TEXT,
    passwordFile TEXT,
    vcardVersion TEXT NOT NULL,
    syncToken TEXT,
    addedAt TEXT NOT NULL,
    lastSyncedAt TEXT,
    groups TEXT CHECK (groups IN ('cards', 'categories'))
);
INSERT INTO remoteOfBook (bookId, url, username, passwordEnv, passwordFile, vcardVersion, syncToken, addedAt,
                          lastSyncedAt, groups)
    SELECT 1, url, username, passwordEnv, passwordFile, vcardVersion, syncToken, addedAt, lastSyncedAt, groups
    FROM remote;
DROP TABLE remote;
ALTER TABLE remoteOfBook RENAME TO remote;

CREATE TABLE contactGroupInBook (
    pk INTEGER PRIMARY KEY,
    bookId INTEGER NOT NULL REFERENCES book(id),
    name TEXT NOT NULL CHECK (name <> ''),
    nameKey TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    uid TEXT,
    UNIQUE (bookId, nameKey),
    UNIQUE (bookId, uid)
);
INSERT INTO contactGroupInBook (pk, bookId, name, nameKey, createdAt, uid)
    SELECT pk, 1, name, nameKey, createdAt, uid FROM contactGroup;
DROP TABLE contactGroup;
ALTER TABLE contactGroupInBook RENAME TO contactGroup;
CREATE INDEX contactGroup_on_nameKey ON contactGroup(nameKey);

CREATE TRIGGER contactGroup_revision_rename AFTER UPDATE OF name ON contactGroup
WHEN NEW.name IS NOT OLD.name
BEGIN
    UPDATE contact SET revision = (SELECT revision FROM changeClock)
    WHERE pk IN (SELECT contactPk FROM groupMember WHERE groupPk = NEW.pk)
        AND revision < (SELECT revision FROM changeClock);
END;

CREATE TABLE syncedCardOfBook (
    bookId INTEGER NOT NULL,
    contactId TEXT NOT NULL,
    href TEXT NOT NULL,
    etag TEXT,
    revision INTEGER NOT NULL,
    base TEXT,
    PRIMARY KEY (bookId, contactId),
    UNIQUE (bookId, href)
) WITHOUT ROWID;
INSERT INTO syncedCardOfBook (bookId, contactId, href, etag, revision, base)
    SELECT 1, contactId, href, etag, revision, base FROM syncedCard;
DROP TABLE syncedCard;
ALTER TABLE syncedCardOfBook RENAME TO syncedCard;

CREATE TABLE syncPushOfBook (
    bookId INTEGER NOT NULL,
    contactId TEXT NOT NULL,
    revision INTEGER NOT NULL,
    base TEXT NOT NULL,
    PRIMARY KEY (bookId, contactId, revision)
) WITHOUT ROWID;
INSERT INTO syncPushOfBook (bookId, contactId, revision, base) SELECT 1, contactId, revision, base FROM syncPush;
DROP TABLE syncPush;
ALTER TABLE syncPushOfBook RENAME TO syncPush;

CREATE TABLE syncedGroupOfBook (
    bookId INTEGER NOT NULL,
    uid TEXT NOT NULL,
    href TEXT NOT NULL,
    etag TEXT,
    base TEXT NOT NULL,
    PRIMARY KEY (bookId, uid),
    UNIQUE (bookId, href)
) WITHOUT ROWID;
INSERT INTO syncedGroupOfBook (bookId, uid, href, etag, base) SELECT 1, uid, href, etag, base FROM syncedGroup;
DROP TABLE syncedGroup;
ALTER TABLE syncedGroupOfBook RENAME TO syncedGroup;

CREATE TABLE syncGroupPushOfBook (
    bookId INTEGER NOT NULL,
    uid TEXT NOT NULL,
    base TEXT NOT NULL,
    PRIMARY KEY (bookId, uid, base)
) WITHOUT ROWID;
INSERT INTO syncGroupPushOfBook (bookId, uid, base) SELECT 1, uid, base FROM syncGroupPush;
DROP TABLE syncGroupPush;
ALTER TABLE syncGroupPushOfBook RENAME TO syncGroupPush;

ALTER TABLE syncConflict ADD COLUMN bookId INTEGER NOT NULL DEFAULT 1;
