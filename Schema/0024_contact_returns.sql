-- Schema version 6: when a deleted contact came back out of the trash
-- (docs/model.md, "Trash and history"): by `restore`, or by a sync whose
-- server edited the card meanwhile (an edit beats a deletion). A contact
-- whose id was given to a new contact starts a history of its own; one
-- that came back keeps the history it had, so its history reads across
-- the return.
CREATE TABLE contactReturn (
    contactId TEXT NOT NULL,
    revision INTEGER NOT NULL,
    PRIMARY KEY (contactId, revision)
) WITHOUT ROWID;
