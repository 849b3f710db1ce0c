-- Schema version 9: search over everything a contact holds (SPEC §Search
-- and dates). `contact.searchWords` holds the folded words of every text of
-- the contact (names, nickname, company, department, title, emails,
-- addresses, note, URLs, messenger handles, social profiles, relations),
-- each after one space, as the engine derives them; it is the last column,
-- so that reading a page of contacts never reads it.
--
-- `contactSearch` indexes that column (FTS5, external content): a rare word
-- is found through it. A common one is found by reading the order and
-- checking `searchWords`, which the first page ends soon. The triggers keep
-- the index in step with every write, whichever path makes it.
--
-- The words of existing contacts are derived by the reindex that the new
-- derivation version brings on at the first open after this migration.
ALTER TABLE contact ADD COLUMN searchWords TEXT NOT NULL DEFAULT '';

CREATE VIRTUAL TABLE contactSearch USING fts5(
    searchWords, content = 'contact', content_rowid = 'pk', tokenize = 'unicode61 remove_diacritics 0'
);

CREATE TRIGGER contact_search_insert AFTER INSERT ON contact BEGIN
    INSERT INTO contactSearch (rowid, searchWords) VALUES (NEW.pk, NEW.searchWords);
END;

CREATE TRIGGER contact_search_delete AFTER DELETE ON contact BEGIN
    INSERT INTO contactSearch (contactSearch, rowid, searchWords) VALUES ('delete', OLD.pk, OLD.searchWords);
END;

CREATE TRIGGER contact_search_update AFTER UPDATE OF searchWords ON contact
WHEN NEW.searchWords IS NOT OLD.searchWords
BEGIN
    INSERT INTO contactSearch (contactSearch, rowid, searchWords) VALUES ('delete', OLD.pk, OLD.searchWords);
    INSERT INTO contactSearch (rowid, searchWords) VALUES (NEW.pk, NEW.searchWords);
END;

-- Every existing contact enters the index now, with no words yet, so that
-- the reindex's updates remove from the index exactly what it holds.
INSERT INTO contactSearch (contactSearch) VALUES ('rebuild');
