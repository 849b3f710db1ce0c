-- A merge's id is never given again: `unmerge` deletes its record, and
-- SQLite gives a new row the largest id plus one, so the next merge took
-- the id of the one just taken back and a retried `unmerge 1` took back a
-- different merge. The highest id ever given is kept here, raised by every
-- insert; a new merge takes the next one.

CREATE TABLE contactMergeSequence (
    lastId INTEGER NOT NULL
);

INSERT INTO contactMergeSequence (lastId) SELECT coalesce(max(id), 0) FROM contactMerge;

CREATE TRIGGER contactMerge_raisesSequence AFTER INSERT ON contactMerge
BEGIN
    UPDATE contactMergeSequence SET lastId = max(lastId, NEW.id);
END;
