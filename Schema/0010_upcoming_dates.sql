-- Schema version 10: upcoming birthdays and anniversaries (SPEC §Search and
-- dates). A date is kept as `YYYY-MM-DD` or `--MM-DD`, so its last five
-- characters are its month and day in calendar order: an index on them
-- finds the dates of a span of days, whatever their year, without reading
-- every contact. Every entry of `dates` recurs yearly (an anniversary, or
-- a custom label such as a name day), so all of them are indexed.
--
-- `attributes` bit 1024 says a contact has a birthday (`--has birthday`).
-- It is derived, so the reindex that the new derivation version brings on
-- at the first open after this migration sets it.
CREATE INDEX contact_on_birthdayDay ON contact(substr(birthday, -5)) WHERE birthday IS NOT NULL;
CREATE INDEX contactDate_on_day ON contactDate(substr(value, -5));
