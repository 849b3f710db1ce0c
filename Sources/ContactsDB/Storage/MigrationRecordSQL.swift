/// The migration-record tables as a tampered database may hold them (no
/// types, no NOT NULL), for building such databases from arbitrary rows
/// (see ``Fuzzing``).
enum MigrationRecordSQL {
    static let createGRDBMigrations = "CREATE TABLE grdb_migrations (identifier PRIMARY KEY)"
    static let createSchemaMigration = "CREATE TABLE schemaMigration (identifier PRIMARY KEY, checksum, appliedAt)"
    static let createForeignTable = "CREATE TABLE IF NOT EXISTS foreign_data (value)"
    static let insertGRDBMigration = "INSERT OR IGNORE INTO grdb_migrations (identifier) VALUES (?)"
    static let insertSchemaMigration =
        "INSERT OR IGNORE INTO schemaMigration (identifier, checksum, appliedAt) VALUES (?, ?, ?)"
}
