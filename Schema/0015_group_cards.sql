-- Groups as address books hold them: a group card (vCard 4.0 KIND:group
-- with MEMBER lines, or Apple's 3.0 X-ADDRESSBOOKSERVER-KIND:group with
-- X-ADDRESSBOOKSERVER-MEMBER lines) becomes a group, never a contact.
--
-- contactGroup.uid: the group card's UID, kept to write the card back; a
-- group made here, and every group already here, gets a new random UUID.
-- groupProperty: the card's other properties, one unfolded content line
-- each, as read, written back on export.
-- groupPendingMember: members the card names that are not contacts here:
-- `urn:uuid:ID` of a contact not present yet, which joins the group when
-- the writer inserts it, and any other URI (mailto:, tel:, sip:), kept and
-- written back.

ALTER TABLE contactGroup ADD COLUMN uid TEXT;
UPDATE contactGroup SET uid = lower(
    hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
    || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)));
CREATE UNIQUE INDEX contactGroup_on_uid ON contactGroup(uid);

CREATE TABLE groupProperty (
    groupPk INTEGER NOT NULL REFERENCES contactGroup(pk) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (groupPk, position)
) WITHOUT ROWID;

CREATE TABLE groupPendingMember (
    groupPk INTEGER NOT NULL REFERENCES contactGroup(pk) ON DELETE CASCADE,
    member TEXT NOT NULL,
    PRIMARY KEY (groupPk, member)
) WITHOUT ROWID;
CREATE INDEX groupPendingMember_on_member ON groupPendingMember(member);
