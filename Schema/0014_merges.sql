-- Merges of duplicates, kept so that each can be taken back exactly. A
-- merge record holds every contact of the merge as it was just before it
-- (the survivor at position 0, then the merged ones in the order given),
-- in the JSON format with its photo, with its times, favorite place and
-- the uids of its groups (one a line: a group renamed since is still its);
-- intoRevision is the survivor's revision the merge wrote, by which an
-- unmerge knows whether the survivor was edited since. keptApart holds the
-- values the survivor did not take (it had a different one), as JSON.

CREATE TABLE contactMerge (
    id INTEGER PRIMARY KEY,
    intoId TEXT NOT NULL,
    at TEXT NOT NULL,
    intoRevision INTEGER NOT NULL,
    keptApart TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE contactMergePart (
    mergeId INTEGER NOT NULL REFERENCES contactMerge(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    contactId TEXT NOT NULL,
    contact TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    favoritePosition INTEGER,
    groupUids TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (mergeId, position)
) WITHOUT ROWID;
