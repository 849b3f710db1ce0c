-- A synced card's record is read by its contact at every sync: each
-- contact's is looked up to see whether it changed since, and every
-- record's href and ETag are listed. These reads made a sync with nothing
-- to do take 6 s at 100,000 cards, a tenth with photos (docs/performance.md,
-- "Syncs of 100,000 cards with Cyrus").
--
-- As a table without rowid, each record sat in the b-tree of its key with
-- its base, the card's JSON as last agreed (a photo's included), and
-- SQLite reads a record whose text overflows its page whole to compare
-- its key. With a rowid, the keys are in indexes of their own, small, and
-- the base is read only when asked for. The listing of hrefs and ETags
-- reads an index that holds both, and the few records of new cards whose
-- push is not confirmed yet (no base) an index of their own. The contacts
-- of a book are walked for their revisions in an index that holds them.

CREATE TABLE syncedCardByRowid (
    bookId INTEGER NOT NULL,
    contactId TEXT NOT NULL,
    href TEXT NOT NULL,
    etag TEXT,
    revision INTEGER NOT NULL,
    base TEXT,
    UNIQUE (bookId, contactId),
    UNIQUE (bookId, href)
);
INSERT INTO syncedCardByRowid (bookId, contactId, href, etag, revision, base)
    SELECT bookId, contactId, href, etag, revision, base FROM syncedCard ORDER BY bookId, contactId;
DROP TABLE syncedCard;
ALTER TABLE syncedCardByRowid RENAME TO syncedCard;

CREATE INDEX syncedCard_on_etag ON syncedCard(bookId, href, etag);
CREATE INDEX syncedCard_unconfirmed ON syncedCard(bookId, href) WHERE base IS NULL;
CREATE INDEX contact_on_bookRevision ON contact(bookId, revision, id);
