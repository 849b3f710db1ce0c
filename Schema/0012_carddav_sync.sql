-- Schema version 12: two-way CardDAV sync (SPEC §CardDAV sync).
--
-- remote: the one address book this database syncs with. The password is
-- never stored: only where to find it (an environment variable's name or
-- a file's path; neither means ~/.netrc). vcardVersion is what the server
-- takes; syncToken is RFC 6578's, NULL until the server gave one.
-- syncedCard: one row per contact the remote holds, by the contact's id
-- (its UID). revision is the contact's revision when it last matched the
-- server: a later one is a local change to push, and a row whose contact
-- is gone is a local deletion to push (so no foreign key). base is the
-- contact as last synced, in the JSON format: the common ancestor of a
-- three-way merge; NULL until the server is known to hold the card.
-- pushRevision and pushBase are a push under way, written before its PUT:
-- when the sync dies before the answer is stored, the next one finds the
-- server holding exactly pushBase (the PUT arrived) or not.
-- syncConflict: what lost when both sides changed one property, or an
-- edit beat a delete (losing NULL: the deletion lost), until dismissed.

CREATE TABLE remote (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    username TEXT,
    passwordEnv TEXT,
    passwordFile TEXT,
    vcardVersion TEXT NOT NULL,
    syncToken TEXT,
    addedAt TEXT NOT NULL,
    lastSyncedAt TEXT
);

CREATE TABLE syncedCard (
    contactId TEXT NOT NULL PRIMARY KEY,
    href TEXT NOT NULL UNIQUE,
    etag TEXT,
    revision INTEGER NOT NULL,
    base TEXT,
    pushRevision INTEGER,
    pushBase TEXT
) WITHOUT ROWID;

CREATE TABLE syncConflict (
    id INTEGER PRIMARY KEY,
    contactId TEXT NOT NULL,
    detectedAt TEXT NOT NULL,
    kept TEXT NOT NULL CHECK (kept IN ('server', 'local')),
    properties TEXT NOT NULL,
    losing TEXT
);
