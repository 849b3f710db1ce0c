-- Groups through sync, in the convention the remote's address book holds
-- (SPEC §Groups as address books hold them).
--
-- remote.groups: 'cards' (a card per group) or 'categories' (CATEGORIES on
-- the members' cards); NULL until `remote add --groups` names one or the
-- first sync finds one (a group card there → cards, else categories).
-- syncedGroup: each group card the remote holds, by the group's uid: its
-- href and ETag, and the name and members both sides last agreed on
-- (`base`: the name, then each member, one a line, sorted), against which
-- a change on either side is found and members changed on both sides are
-- merged as a set.

ALTER TABLE remote ADD COLUMN groups TEXT CHECK (groups IN ('cards', 'categories'));

CREATE TABLE syncedGroup (
    uid TEXT PRIMARY KEY,
    href TEXT NOT NULL UNIQUE,
    etag TEXT,
    base TEXT NOT NULL
) WITHOUT ROWID;

-- Every group card PUT under way, written before it is sent: a sync that
-- dies before the answer is stored finds the server holding one of them
-- (its PUT arrived) or none, and takes the one it holds as agreed.
CREATE TABLE syncGroupPush (
    uid TEXT NOT NULL,
    base TEXT NOT NULL,
    PRIMARY KEY (uid, base)
) WITHOUT ROWID;
