-- Every push under way, not only one. A push is written before its PUT; a
-- sync that dies before the answer is stored leaves it unconfirmed, and the
-- next sync finds the server holding exactly one of them (its PUT arrived)
-- or none. One row per push not yet confirmed, by contact and the
-- contact's revision it carried; confirming any push of a contact (or
-- learning the server's card) removes them all. This replaces
-- syncedCard.pushRevision and pushBase, which kept one: of a new card
-- its first push, of a known one its last, so that a later push that had
-- arrived was taken for a change made on the server.

CREATE TABLE syncPush (
    contactId TEXT NOT NULL,
    revision INTEGER NOT NULL,
    base TEXT NOT NULL,
    PRIMARY KEY (contactId, revision)
) WITHOUT ROWID;

INSERT INTO syncPush (contactId, revision, base)
    SELECT contactId, pushRevision, pushBase FROM syncedCard WHERE pushBase IS NOT NULL AND pushRevision IS NOT NULL;

ALTER TABLE syncedCard DROP COLUMN pushRevision;
ALTER TABLE syncedCard DROP COLUMN pushBase;
