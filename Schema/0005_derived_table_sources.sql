-- Schema version 5: each derived table reads its rows from one view, so
-- that the triggers, a deferred import's catch-up, `reindex` and `doctor`
-- share one definition instead of repeating it.

-- Each phone's key (contactPk * 128 + position) and the digits it is
-- found by; the phoneDigits triggers read it, as phone_window_* read
-- phoneWindowOf.
CREATE VIEW phoneDigitsOf AS
    SELECT contactPk, position, contactPk * 128 + position AS phoneKey, ltrim(normalized, '+') AS digits
    FROM phone;

DROP TRIGGER phone_digits_insert;
CREATE TRIGGER phone_digits_insert AFTER INSERT ON phone BEGIN
    INSERT INTO phoneDigits (rowid, digits)
        SELECT phoneKey, digits FROM phoneDigitsOf WHERE contactPk = NEW.contactPk AND position = NEW.position;
END;

-- Before the delete, while the view still sees the row: a contentless
-- FTS5 table forgets a row only when given exactly what it indexed.
DROP TRIGGER phone_digits_delete;
CREATE TRIGGER phone_digits_delete BEFORE DELETE ON phone BEGIN
    INSERT INTO phoneDigits (phoneDigits, rowid, digits)
        SELECT 'delete', phoneKey, digits FROM phoneDigitsOf WHERE contactPk = OLD.contactPk AND position = OLD.position;
END;

-- The counts the contact_counts_* triggers keep, computed whole.
CREATE VIEW sectionCountOf AS
    SELECT sortIndex, sectionKey, count(*) AS count FROM contact GROUP BY sortIndex;
CREATE VIEW attributeCountOf AS
    SELECT attributes, count(*) AS count FROM contact GROUP BY attributes;
