-- Schema version 8: contact photos (SPEC §Photos). A photo lives in its own
-- table, one row per contact, so that reading a page of contacts never
-- reads image bytes; `attributes` bit 512 says whether a contact has one,
-- which serves `--has photo`, its counts, and a list's placeholder.
-- `original` is the bytes as given; `thumbnail` is null when an imported
-- photo could not be decoded (it is kept as given all the same).
CREATE TABLE contactPhoto (
    contactPk INTEGER PRIMARY KEY REFERENCES contact(pk) ON DELETE CASCADE,
    mediaType TEXT NOT NULL,
    original BLOB NOT NULL,
    thumbnail BLOB,
    thumbnailType TEXT,
    width INTEGER,
    height INTEGER,
    CHECK ((thumbnail IS NULL) = (thumbnailType IS NULL))
);
