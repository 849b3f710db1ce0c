-- Two group cards of one name in a book (two clients made them, each with
-- its own UID) stay two groups: the one taken in second is told apart here
-- by a name of its own, `NAME (2)` (or the first of (3), (4), … that is
-- free), while its card keeps the name it has on the server.
--
-- contactGroup.cardName: the name the group's card has where the group's
-- name here differs from it; NULL where they are one (every group so far).
-- A rename here clears it: the card takes the new name.

ALTER TABLE contactGroup ADD COLUMN cardName TEXT CHECK (cardName <> '');
