-- Schema version 3: each contact's name words beside it in the default
-- order's index, so that a name-prefix filter over the sectioned list is
-- checked in the index as it is read, without a probe of `nameWord` for
-- every contact passed over.
--
-- contact.nameWords: the distinct folded words of first name, last name
-- and company (those of `nameWord`), each preceded by one space, so that
-- a word starting with "an" is an occurrence of " an".

ALTER TABLE contact ADD COLUMN nameWords TEXT NOT NULL DEFAULT '';

UPDATE contact SET nameWords = coalesce(
    (SELECT ' ' || group_concat(CAST(word AS TEXT), ' ') FROM nameWord WHERE nameWord.contactPk = contact.pk), '');

DROP INDEX contact_on_defaultOrder;
CREATE INDEX contact_on_defaultOrder ON contact(sortIndex, sortKey, id, attributes, nameWords);
