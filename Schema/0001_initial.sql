-- Schema version 1: contacts, their ordered children, the indexes and
-- maintained counts that let every query run from an index, and the
-- engine's own records (seed imports, settings).
--
-- Plain SQL only: no custom collation or function is referenced, so the stock
-- sqlite3 shell can open, check and query the file.
--
-- `contact.id` is the stable public id; `contact.pk` is the row's integer
-- key, which children and search tables reference so that their rows stay
-- small and a bulk import appends to them.
--
-- Derived columns are written by the engine on every write, never by callers:
--   displayName, sortName, sectionKey, sortIndex  as SPEC §Data model says;
--   sortKey, firstNameKey, lastNameKey, companyKey
--       ICU root-collation sort keys (primary strength, compared bytewise)
--       of sortName and of each name, NULL where the name is empty;
--   companyFolded, email.valueFolded, address.cityFolded/countryFolded
--       case- and accent-folded text for the "contains" filters;
--   attributes
--       a bit set of what the contact has, so that the "has" filters never
--       probe the child tables: 1 phone, 2 email, 4 address, 8 telegram,
--       16 whatsapp, 32 viber, 64 signal, 128 threema;
--   phone.normalized  E.164 where the country is known, else the digits;
--   nameWord     the folded words of first name, last name and company;
--   phoneDigits  each number's digits, trigram-indexed (see below).

CREATE TABLE contact (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE CHECK (id <> ''),
    firstName TEXT,
    lastName TEXT,
    company TEXT,
    age INTEGER CHECK (age BETWEEN 0 AND 999),
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
    CHECK (firstName IS NOT NULL OR lastName IS NOT NULL OR company IS NOT NULL)
);

-- The default sectioned order (which also serves the section filter, as a
-- section's label and its sortIndex go together), and each name sort in
-- both directions with the contacts lacking that name last (ties: sortKey,
-- then id, ascending). `attributes` rides along so that the "has" filters
-- are checked in the index, before any row is read.
CREATE INDEX contact_on_defaultOrder ON contact(sortIndex, sortKey, id, attributes);
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

-- Children: clustered by (contactPk, position), so a contact's children are
-- one contiguous range, in their order.
CREATE TABLE phone (
    contactPk INTEGER NOT NULL REFERENCES contact(pk) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    type TEXT NOT NULL CHECK (type <> ''),
    value TEXT NOT NULL,
    normalized TEXT NOT NULL,
    PRIMARY KEY (contactPk, position)
) WITHOUT ROWID;

CREATE TABLE email (
    contactPk INTEGER NOT NULL REFERENCES contact(pk) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    type TEXT NOT NULL CHECK (type <> ''),
    value TEXT NOT NULL,
    valueFolded TEXT NOT NULL,
    PRIMARY KEY (contactPk, position)
) WITHOUT ROWID;

CREATE TABLE address (
    contactPk INTEGER NOT NULL REFERENCES contact(pk) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    type TEXT NOT NULL CHECK (type <> ''),
    street1 TEXT NOT NULL DEFAULT '',
    street2 TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT '',
    zipcode TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT '',
    cityFolded TEXT NOT NULL DEFAULT '',
    countryFolded TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (contactPk, position)
) WITHOUT ROWID;

CREATE TABLE messenger (
    contactPk INTEGER NOT NULL REFERENCES contact(pk) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    service TEXT NOT NULL
        CHECK (service IN ('telegram', 'whatsapp', 'viber', 'signal', 'threema')),
    handle TEXT NOT NULL CHECK (handle <> ''),
    PRIMARY KEY (contactPk, position)
) WITHOUT ROWID;

-- Search tables.
CREATE TABLE nameWord (
    word BLOB NOT NULL,
    contactPk INTEGER NOT NULL REFERENCES contact(pk) ON DELETE CASCADE,
    PRIMARY KEY (word, contactPk)
) WITHOUT ROWID;
CREATE INDEX nameWord_on_contactPk ON nameWord(contactPk, word);

-- Each phone's normalized digits, trigram-indexed by SQLite's built-in FTS5,
-- so that "these digits occur in a number" is an index lookup. The rowid
-- is contactPk * 128 + position (a contact holds at most 100 phones); the
-- triggers keep it in step with `phone`, cascades included.
CREATE VIRTUAL TABLE phoneDigits USING fts5(digits, tokenize = 'trigram', content = '');

CREATE TRIGGER phone_digits_insert AFTER INSERT ON phone BEGIN
    INSERT INTO phoneDigits (rowid, digits)
        VALUES (NEW.contactPk * 128 + NEW.position, ltrim(NEW.normalized, '+'));
END;

CREATE TRIGGER phone_digits_delete AFTER DELETE ON phone BEGIN
    INSERT INTO phoneDigits (phoneDigits, rowid, digits)
        VALUES ('delete', OLD.contactPk * 128 + OLD.position, ltrim(OLD.normalized, '+'));
END;

-- Counts kept by triggers, so the section index and attribute counts are
-- read, not computed.
CREATE TABLE sectionCount (
    sortIndex INTEGER NOT NULL PRIMARY KEY,
    sectionKey TEXT NOT NULL,
    count INTEGER NOT NULL
);
CREATE TABLE attributeCount (
    attributes INTEGER NOT NULL PRIMARY KEY,
    count INTEGER NOT NULL
);

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

-- One row per seed file ever imported into this database: its identity is
-- the SHA-256 of its bytes.
CREATE TABLE seedImport (
    checksum TEXT NOT NULL PRIMARY KEY,
    source TEXT NOT NULL,
    contactCount INTEGER NOT NULL,
    importedAt TEXT NOT NULL
);

-- Engine state that is not a contact: e.g. whether the bundled seed was
-- declined, and which collation computed the stored keys.
CREATE TABLE setting (
    key TEXT NOT NULL PRIMARY KEY,
    value TEXT NOT NULL
);
