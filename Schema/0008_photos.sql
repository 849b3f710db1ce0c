-- Schema version 8: contact photos (SPEC §Photos). A photo lives in its own
-- table, one row per contact, so that reading a page of contacts never
-- reads image bytes; `attributes` bit 512 says whether a contact has one,
-- which serves `--has photo`, its counts, and a list's placeholder.
-- `original` is the bytes as given, and the last column: SQLite reaches a
-- column after a large blob only by walking the blob's overflow pages, so
-- a page of thumbnails would read every original. `thumbnail` is null
-- when an imported photo could not be decoded (it is kept all the same).
CREATE TABLE contactPhoto (
    contactPk INTEGER PRIMARY KEY REFERENCES contact(pk) ON DELETE CASCADE,
    mediaType TEXT NOT NULL,
    width INTEGER,
    height INTEGER,
    thumbnailType TEXT,
    thumbnail BLOB,
    original BLOB NOT NULL,
    CHECK ((thumbnail IS NULL) = (thumbnailType IS NULL))
);
