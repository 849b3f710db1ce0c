-- Schema version 4: finding a whole number (10 digits or more) by a few
-- point lookups instead of the trigram index, whose posting lists for a
-- country code's digits run to a large share of all phones.
--
-- phoneWindow: for each phone, the 7 digits at each offset 0, 4 and 8 of
-- its normalized digits where 7 fit (a number holds at most 15 digits), as
-- the integer 1‖digits (so leading zeros count), keyed by phone as in
-- phoneDigits (contactPk * 128 + position). Where a query of L ≥ 10
-- digits occurs in a number, the first multiple of 4 at or after where it
-- starts begins a window that lies inside the occurrence, 0 to 3 digits
-- into the query: so the query's windows at 0, 1, 2 and 3 find every
-- number that holds it, and each candidate is confirmed with instr().

CREATE TABLE phoneWindow (
    window INTEGER NOT NULL,
    phoneKey INTEGER NOT NULL,
    PRIMARY KEY (window, phoneKey)
) WITHOUT ROWID;

-- The windows of every phone: the one definition the triggers, the
-- engine and this migration read.
CREATE VIEW phoneWindowOf AS
    SELECT contactPk, position, contactPk * 128 + position AS phoneKey,
           CAST('1' || substr(ltrim(normalized, '+'), offset + 1, 7) AS INTEGER) AS window
    FROM phone, (SELECT 0 AS offset UNION ALL SELECT 4 UNION ALL SELECT 8)
    WHERE offset + 7 <= length(ltrim(normalized, '+'));

-- A number may repeat a window (11111111111), hence OR IGNORE.
CREATE TRIGGER phone_window_insert AFTER INSERT ON phone BEGIN
    INSERT OR IGNORE INTO phoneWindow (window, phoneKey)
        SELECT window, phoneKey FROM phoneWindowOf WHERE contactPk = NEW.contactPk AND position = NEW.position;
END;

CREATE TRIGGER phone_window_delete BEFORE DELETE ON phone BEGIN
    DELETE FROM phoneWindow WHERE (window, phoneKey) IN (
        SELECT window, phoneKey FROM phoneWindowOf WHERE contactPk = OLD.contactPk AND position = OLD.position);
END;

INSERT OR IGNORE INTO phoneWindow (window, phoneKey) SELECT window, phoneKey FROM phoneWindowOf;
