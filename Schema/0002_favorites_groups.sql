-- Schema version 2: favorites in an order the user sets, and groups.
--
-- contact.favoritePosition: NULL for a contact that is not a favorite;
-- favorites are numbered 1, 2, 3… in the user's order, kept contiguous by
-- the engine.
-- contactGroup.nameKey: the name folded to lower case, so that names are
-- unique whatever their case. Deleting a group keeps its contacts;
-- deleting a contact leaves its groups.

ALTER TABLE contact ADD COLUMN favoritePosition INTEGER CHECK (favoritePosition > 0);
CREATE INDEX contact_on_favoritePosition ON contact(favoritePosition) WHERE favoritePosition IS NOT NULL;

CREATE TABLE contactGroup (
    pk INTEGER PRIMARY KEY,
    name TEXT NOT NULL CHECK (name <> ''),
    nameKey TEXT NOT NULL UNIQUE,
    createdAt TEXT NOT NULL
);

CREATE TABLE groupMember (
    groupPk INTEGER NOT NULL REFERENCES contactGroup(pk) ON DELETE CASCADE,
    contactPk INTEGER NOT NULL REFERENCES contact(pk) ON DELETE CASCADE,
    PRIMARY KEY (groupPk, contactPk)
) WITHOUT ROWID;
CREATE INDEX groupMember_on_contactPk ON groupMember(contactPk, groupPk);

-- A deleted favorite leaves no gap in the positions.
CREATE TRIGGER contact_favorite_delete AFTER DELETE ON contact WHEN OLD.favoritePosition IS NOT NULL BEGIN
    UPDATE contact SET favoritePosition = favoritePosition - 1 WHERE favoritePosition > OLD.favoritePosition;
END;
