-- The unified list in every order reads that order's own index, as the
-- plain list does (docs/performance.md, One row per person).
--
-- Each order's index now ends with `isPersonHead` and `personAttributes`,
-- so that a unified page tests whether an entry heads its person, and the
-- person's attributes, inside the index: a card that heads no person is
-- skipped without reading its row. This replaces the two indexes of the
-- heads alone of 0021 (the default order and first name Z→A), which held
-- nearly every contact a second time; the two columns cost an entry two
-- bytes of its record header (0 and 1 and a NULL take no bytes of their
-- own), and only a linked card's entries change with its person.

DROP INDEX contact_on_personOrder;
DROP INDEX contact_on_personFirstName_desc;

DROP INDEX contact_on_defaultOrder;
CREATE INDEX contact_on_defaultOrder
    ON contact(sortIndex, sortKey, id, attributes, nameWords, isPersonHead, personAttributes);
DROP INDEX contact_on_firstName_asc;
CREATE INDEX contact_on_firstName_asc
    ON contact(firstNameKey IS NULL, firstNameKey, sortKey, id, attributes, isPersonHead, personAttributes);
DROP INDEX contact_on_firstName_desc;
CREATE INDEX contact_on_firstName_desc
    ON contact(firstNameKey IS NULL, firstNameKey DESC, sortKey, id, attributes, isPersonHead, personAttributes);
DROP INDEX contact_on_lastName_asc;
CREATE INDEX contact_on_lastName_asc
    ON contact(lastNameKey IS NULL, lastNameKey, sortKey, id, attributes, isPersonHead, personAttributes);
DROP INDEX contact_on_lastName_desc;
CREATE INDEX contact_on_lastName_desc
    ON contact(lastNameKey IS NULL, lastNameKey DESC, sortKey, id, attributes, isPersonHead, personAttributes);
DROP INDEX contact_on_company_asc;
CREATE INDEX contact_on_company_asc
    ON contact(companyKey IS NULL, companyKey, sortKey, id, attributes, isPersonHead, personAttributes);
DROP INDEX contact_on_company_desc;
CREATE INDEX contact_on_company_desc
    ON contact(companyKey IS NULL, companyKey DESC, sortKey, id, attributes, isPersonHead, personAttributes);
