-- Schema version 6: the whole card (SPEC §The whole card). A contact gains
-- every field a phone's address book holds; imported cards are kept even
-- without a name (a phone or an email is enough), and messengers keep any
-- service. Both loosened rules were CHECK constraints, which SQLite can
-- only drop by rebuilding the table, so `contact` and `messenger` are
-- rebuilt here with their indexes, triggers and views (the migration runs
-- with foreign keys off, so the drop cascades nowhere).
--
-- New derived data: `attributes` bit 256 marks a contact holding any of
-- the lists below (dates, urls, relations, socialProfiles, extra), so
-- that reading a page of contacts skips their tables when none does.

DROP VIEW sectionCountOf;
DROP VIEW attributeCountOf;

CREATE TABLE contactNew (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE CHECK (id <> ''),
    kind TEXT NOT NULL DEFAULT 'individual' CHECK (kind IN ('individual', 'organization')),
    firstName TEXT,
    lastName TEXT,
    company TEXT,
    age INTEGER CHECK (age BETWEEN 0 AND 999),
    namePrefix TEXT,
    middleName TEXT,
    nameSuffix TEXT,
    phoneticFirstName TEXT,
    phoneticMiddleName TEXT,
    phoneticLastName TEXT,
    nickname TEXT,
    formattedName TEXT,
    department TEXT,
    jobTitle TEXT,
    role TEXT,
    birthday TEXT,
    displayName TEXT NOT NULL,
    sortName TEXT NOT NULL,
    sectionKey TEXT NOT NULL,
    sortIndex INTEGER NOT NULL,
    sortKey BLOB NOT NULL,
    firstNameKey BLOB,
    lastNameKey BLOB,
    companyKey BLOB,
    companyFolded TEXT,
    attributes INTEGER NOT NULL DEFAULT 0,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    favoritePosition INTEGER CHECK (favoritePosition > 0),
    nameWords TEXT NOT NULL DEFAULT '',
    -- Last, so that reading the columns before it never reads a long
    -- note's overflow pages.
    note TEXT
);
INSERT INTO contactNew (
    pk, id, firstName, lastName, company, age, displayName, sortName, sectionKey, sortIndex, sortKey,
    firstNameKey, lastNameKey, companyKey, companyFolded, attributes, createdAt, updatedAt,
    favoritePosition, nameWords)
SELECT pk, id, firstName, lastName, company, age, displayName, sortName, sectionKey, sortIndex, sortKey,
    firstNameKey, lastNameKey, companyKey, companyFolded, attributes, createdAt, updatedAt,
    favoritePosition, nameWords
FROM contact;
DROP TABLE contact;
ALTER TABLE contactNew RENAME TO contact;

CREATE INDEX contact_on_defaultOrder ON contact(sortIndex, sortKey, id, attributes, nameWords);
CREATE INDEX contact_on_firstName_asc
    ON contact(firstNameKey IS NULL, firstNameKey, sortKey, id, attributes);
CREATE INDEX contact_on_firstName_desc
    ON contact(firstNameKey IS NULL, firstNameKey DESC, sortKey, id, attributes);
CREATE INDEX contact_on_lastName_asc
    ON contact(lastNameKey IS NULL, lastNameKey, sortKey, id, attributes);
CREATE INDEX contact_on_lastName_desc
    ON contact(lastNameKey IS NULL, lastNameKey DESC, sortKey, id, attributes);
CREATE INDEX contact_on_company_asc
    ON contact(companyKey IS NULL, companyKey, sortKey, id, attributes);
CREATE INDEX contact_on_company_desc
    ON contact(companyKey IS NULL, companyKey DESC, sortKey, id, attributes);
CREATE INDEX contact_on_favoritePosition ON contact(favoritePosition) WHERE favoritePosition IS NOT NULL;

CREATE TRIGGER contact_counts_insert AFTER INSERT ON contact BEGIN
    INSERT INTO sectionCount (sortIndex, sectionKey, count) VALUES (NEW.sortIndex, NEW.sectionKey, 1)
        ON CONFLICT (sortIndex) DO UPDATE SET count = count + 1;
    INSERT INTO attributeCount (attributes, count) VALUES (NEW.attributes, 1)
        ON CONFLICT (attributes) DO UPDATE SET count = count + 1;
END;
CREATE TRIGGER contact_counts_delete AFTER DELETE ON contact BEGIN
    UPDATE sectionCount SET count = count - 1 WHERE sortIndex = OLD.sortIndex;
    UPDATE attributeCount SET count = count - 1 WHERE attributes = OLD.attributes;
END;
CREATE TRIGGER contact_counts_update AFTER UPDATE OF sortIndex, sectionKey, attributes ON contact BEGIN
    UPDATE sectionCount SET count = count - 1 WHERE sortIndex = OLD.sortIndex;
    INSERT INTO sectionCount (sortIndex, sectionKey, count) VALUES (NEW.sortIndex, NEW.sectionKey, 1)
        ON CONFLICT (sortIndex) DO UPDATE SET count = count + 1, sectionKey = NEW.sectionKey;
    UPDATE attributeCount SET count = count - 1 WHERE attributes = OLD.attributes;
    INSERT INTO attributeCount (attributes, count) VALUES (NEW.attributes, 1)
        ON CONFLICT (attributes) DO UPDATE SET count = count + 1;
END;
CREATE TRIGGER contact_favorite_delete AFTER DELETE ON contact WHEN OLD.favoritePosition IS NOT NULL BEGIN
    UPDATE contact SET favoritePosition = favoritePosition - 1 WHERE favoritePosition > OLD.favoritePosition;
END;

CREATE VIEW sectionCountOf AS
    SELECT sortIndex, sectionKey, count(*) AS count FROM contact GROUP BY sortIndex;
CREATE VIEW attributeCountOf AS
    SELECT attributes, count(*) AS count FROM contact GROUP BY attributes;

CREATE TABLE messengerNew (
    contactPk INTEGER NOT NULL REFERENCES contact(pk) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    service TEXT NOT NULL CHECK (service <> ''),
    handle TEXT NOT NULL CHECK (handle <> ''),
    parameters TEXT,
    PRIMARY KEY (contactPk, position)
) WITHOUT ROWID;
INSERT INTO messengerNew (contactPk, position, service, handle)
    SELECT contactPk, position, service, handle FROM messenger;
DROP TABLE messenger;
ALTER TABLE messengerNew RENAME TO messenger;

ALTER TABLE phone ADD COLUMN preferred INTEGER NOT NULL DEFAULT 0 CHECK (preferred IN (0, 1));
ALTER TABLE email ADD COLUMN preferred INTEGER NOT NULL DEFAULT 0 CHECK (preferred IN (0, 1));
ALTER TABLE address ADD COLUMN preferred INTEGER NOT NULL DEFAULT 0 CHECK (preferred IN (0, 1));
ALTER TABLE address ADD COLUMN poBox TEXT NOT NULL DEFAULT '';
-- The vCard parameters the model does not hold (`X-EVOLUTION-UI-SLOT=1`,
-- `PREF=2`), as the producer wrote them, so that export writes them back.
ALTER TABLE phone ADD COLUMN parameters TEXT;
ALTER TABLE email ADD COLUMN parameters TEXT;
ALTER TABLE address ADD COLUMN parameters TEXT;

-- The lists of the whole card, ordered like the other children.
CREATE TABLE contactDate (
    contactPk INTEGER NOT NULL REFERENCES contact(pk) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    type TEXT NOT NULL CHECK (type <> ''),
    value TEXT NOT NULL,
    parameters TEXT,
    PRIMARY KEY (contactPk, position)
) WITHOUT ROWID;

CREATE TABLE url (
    contactPk INTEGER NOT NULL REFERENCES contact(pk) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    type TEXT NOT NULL CHECK (type <> ''),
    value TEXT NOT NULL,
    parameters TEXT,
    PRIMARY KEY (contactPk, position)
) WITHOUT ROWID;

CREATE TABLE relation (
    contactPk INTEGER NOT NULL REFERENCES contact(pk) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    type TEXT NOT NULL CHECK (type <> ''),
    name TEXT NOT NULL,
    PRIMARY KEY (contactPk, position)
) WITHOUT ROWID;

CREATE TABLE socialProfile (
    contactPk INTEGER NOT NULL REFERENCES contact(pk) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    service TEXT NOT NULL CHECK (service <> ''),
    handle TEXT NOT NULL,
    url TEXT NOT NULL,
    PRIMARY KEY (contactPk, position)
) WITHOUT ROWID;

-- A card's properties the model does not hold, each one content line.
CREATE TABLE extraProperty (
    contactPk INTEGER NOT NULL REFERENCES contact(pk) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (contactPk, position)
) WITHOUT ROWID;
