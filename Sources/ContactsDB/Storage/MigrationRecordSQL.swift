/// The SQL of the migration records.
///
/// Each applied migration is one row of `schemaMigration`, written in the
/// migration's own transaction together with the file header's
/// `user_version`, which counts them: a row removed alone no longer matches
/// the count. Earlier builds ran GRDB's migrator, which lists the
/// identifiers in `grdb_migrations` and refuses a file without that table;
/// it is kept in step (and created, as GRDB did), so that those builds
/// still open every file, and read as a cross-check of the records.
package enum MigrationRecordSQL {
    package static let recordTable = "schemaMigration"
    package static let legacyTable = "grdb_migrations"

    /// The text earlier builds used: `sqlite_master` keeps it verbatim, and
    /// an upgraded database must read as a fresh one.
    package static let createRecordTable = """
        CREATE TABLE IF NOT EXISTS schemaMigration (
            identifier TEXT NOT NULL PRIMARY KEY,
            checksum TEXT NOT NULL,
            appliedAt TEXT NOT NULL)
        """

    package static let tableNames = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"

    /// Name, declared type and primary-key position of each column of a
    /// table, in column order.
    package static let columns = "SELECT name, upper(type), pk FROM pragma_table_info(?) ORDER BY cid"

    package static let nonTextRecordCount = """
        SELECT count(*) FROM schemaMigration
        WHERE typeof(identifier) != 'text' OR typeof(checksum) != 'text' OR typeof(appliedAt) != 'text'
        """

    package static let records = "SELECT identifier, checksum, appliedAt FROM schemaMigration"

    package static let insertRecord = "INSERT INTO schemaMigration (identifier, checksum, appliedAt) VALUES (?, ?, ?)"

    /// GRDB's text, so that `sqlite_master` reads as after GRDB's migrator.
    package static let createLegacyTable = "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)"

    package static let nonTextLegacyCount = "SELECT count(*) FROM grdb_migrations WHERE typeof(identifier) != 'text'"

    package static let legacyIdentifiers = "SELECT identifier FROM grdb_migrations"

    package static let insertLegacy = "INSERT INTO grdb_migrations (identifier) VALUES (?)"

    package static let recordedCount = "PRAGMA user_version"

    package static func setRecordedCount(_ count: Int) -> String { "PRAGMA user_version = \(count)" }

    /// Migrations run without foreign key checks
    /// (``Connection/withoutForeignKeyChecks(_:_:)``), and check the keys
    /// before the commit.
    package static let foreignKeyViolations = "PRAGMA foreign_key_check"

    // MARK: - Tampered records

    // The record tables as a tampered database may hold them (no types, no
    // NOT NULL), for building such databases from arbitrary rows (see
    // ``Fuzzing``).
    package static let createGRDBMigrations = "CREATE TABLE grdb_migrations (identifier PRIMARY KEY)"
    package static let createSchemaMigration = "CREATE TABLE schemaMigration (identifier PRIMARY KEY, checksum, appliedAt)"
    package static let createForeignTable = "CREATE TABLE IF NOT EXISTS foreign_data (value)"
    package static let insertGRDBMigration = "INSERT OR IGNORE INTO grdb_migrations (identifier) VALUES (?)"
    package static let insertSchemaMigration =
        "INSERT OR IGNORE INTO schemaMigration (identifier, checksum, appliedAt) VALUES (?, ?, ?)"
}
