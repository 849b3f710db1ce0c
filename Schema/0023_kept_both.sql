-- Schema version 6: the two versions a sync with `--conflicts keep-both`
-- kept of one contact (docs/sync.md, "Conflicts"): the contact, which took
-- the server's version, and the copy that holds the local one. `duplicates`
-- lists each pair as a certain set whatever the conflict changed (their
-- names, or the one phone that made them alike), so that one `merge` puts
-- them together again. A pair whose contact is gone is never read.
CREATE TABLE keptBoth (
    contactId TEXT NOT NULL,
    copyId TEXT NOT NULL,
    PRIMARY KEY (contactId, copyId)
) WITHOUT ROWID;
