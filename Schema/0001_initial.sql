-- Schema version 1: contacts, their ordered children, and the engine's own
-- records (seed imports, settings).
--
-- Plain SQL only: no custom collation or function is referenced, so the stock
-- sqlite3 shell can open, check and query the file.
--
-- Derived columns are written by the engine on every write, never by callers:
--   displayName, sortName, sectionKey, sortIndex  as SPEC §Data model says;
--   sortKey, firstNameKey, lastNameKey, companyKey
--       collation keys (compared bytewise) of sortName and of each name,
--       NULL where the name is empty, so that every sort runs from an index;
--   companyFolded, email.valueFolded, address.cityFolded/countryFolded
--       case- and accent-folded text for the "contains" filters;
--   attributes
--       a bit set of what the contact has, so that the "has" filters never
--       probe the child tables: 1 phone, 2 email, 4 address, 8 telegram,
--       16 whatsapp, 32 viber, 64 signal, 128 threema;
--   nameWord  the folded words of first name, last name and company, for
--       the name-prefix filter;
--   phone.normalized  E.164 where the country is known, else the digits.

CREATE TABLE contact (
    id TEXT NOT NULL PRIMARY KEY CHECK (id <> ''),
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
-- then id, ascending).
CREATE INDEX contact_on_defaultOrder ON contact(sortIndex, sortKey, id);
CREATE INDEX contact_on_firstName_asc
    ON contact(firstNameKey IS NULL, firstNameKey, sortKey, id);
CREATE INDEX contact_on_firstName_desc
    ON contact(firstNameKey IS NULL, firstNameKey DESC, sortKey, id);
CREATE INDEX contact_on_lastName_asc
    ON contact(lastNameKey IS NULL, lastNameKey, sortKey, id);
CREATE INDEX contact_on_lastName_desc
    ON contact(lastNameKey IS NULL, lastNameKey DESC, sortKey, id);
CREATE INDEX contact_on_company_asc
    ON contact(companyKey IS NULL, companyKey, sortKey, id);
CREATE INDEX contact_on_company_desc
    ON contact(companyKey IS NULL, companyKey DESC, sortKey, id);
CREATE INDEX contact_on_attributes ON contact(attributes);

-- Children: clustered by (contactId, position), so a contact's children are
-- read in their order from one contiguous range.
CREATE TABLE phone (
    contactId TEXT NOT NULL REFERENCES contact(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    type TEXT NOT NULL CHECK (type <> ''),
    value TEXT NOT NULL,
    normalized TEXT NOT NULL,
    PRIMARY KEY (contactId, position)
) WITHOUT ROWID;
CREATE INDEX phone_on_normalized ON phone(normalized);

CREATE TABLE email (
    contactId TEXT NOT NULL REFERENCES contact(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    type TEXT NOT NULL CHECK (type <> ''),
    value TEXT NOT NULL,
    valueFolded TEXT NOT NULL,
    PRIMARY KEY (contactId, position)
) WITHOUT ROWID;

CREATE TABLE address (
    contactId TEXT NOT NULL REFERENCES contact(id) ON DELETE CASCADE,
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
    PRIMARY KEY (contactId, position)
) WITHOUT ROWID;

CREATE TABLE messenger (
    contactId TEXT NOT NULL REFERENCES contact(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    service TEXT NOT NULL
        CHECK (service IN ('telegram', 'whatsapp', 'viber', 'signal', 'threema')),
    handle TEXT NOT NULL CHECK (handle <> ''),
    PRIMARY KEY (contactId, position)
) WITHOUT ROWID;

CREATE TABLE nameWord (
    word BLOB NOT NULL,
    contactId TEXT NOT NULL REFERENCES contact(id) ON DELETE CASCADE,
    PRIMARY KEY (word, contactId)
) WITHOUT ROWID;
CREATE INDEX nameWord_on_contactId ON nameWord(contactId);

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
