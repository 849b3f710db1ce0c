import Foundation
import GRDB

/// Applies ``SchemaMigration``s in order on GRDB's `DatabaseMigrator`, and
/// refuses a database that this build must not touch.
///
/// Beside GRDB's `grdb_migrations`, each applied migration's checksum is
/// recorded in `schemaMigration`, in the migration's own transaction.
struct Migrator {
    let migrations: [SchemaMigration]

    /// Where a database stands against this build's migrations.
    struct Status {
        var applied: [(migration: SchemaMigration, appliedAt: String)]
        var pending: [SchemaMigration]
    }

    // MARK: - Checking

    /// Throws, without writing, when the database is not a contacts
    /// database, holds migrations this build does not know, or recorded a
    /// checksum that differs from this build's file.
    func checkCompatibility(_ db: Database, path: String) throws {
        let hasMigrationTable = try db.tableExists("grdb_migrations")
        if !hasMigrationTable {
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            guard tables.isEmpty else {
                throw ContactsDBError.notContactsDatabase(path: path, reason: "it has tables but no migration records")
            }
            return
        }
        let known = Set(migrations.map(\.identifier))
        let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw ContactsDBError.databaseTooNew(path: path, unknownMigrations: unknown)
        }
        let recorded = try recordedChecksums(db)
        for migration in migrations where applied.contains(migration.identifier) {
            guard recorded[migration.identifier]?.checksum == migration.checksum else {
                throw ContactsDBError.migrationEdited(path: path, migration: migration.identifier)
            }
        }
    }

    func status(_ db: Database) throws -> Status {
        let recorded = try db.tableExists("grdb_migrations") ? try recordedChecksums(db) : [:]
        var status = Status(applied: [], pending: [])
        for migration in migrations {
            if let record = recorded[migration.identifier] {
                status.applied.append((migration, record.appliedAt))
            } else {
                status.pending.append(migration)
            }
        }
        return status
    }

    // MARK: - Applying

    /// Applies `pending` (from ``status(_:)``), each in its own
    /// transaction, and returns their identifiers. A failing migration is
    /// rolled back whole and the error names it; the ones before it stay
    /// applied. One applied meanwhile by another process is skipped.
    func migrate(_ pending: [SchemaMigration], _ writer: some DatabaseWriter) throws -> [String] {
        let migrator = makeDatabaseMigrator()
        for migration in pending {
            do {
                try migrator.migrate(writer, upTo: migration.identifier)
            } catch let error as ContactsDBError {
                throw error
            } catch let error as DatabaseError {
                throw ContactsDBError.migrationFailed(migration: migration.identifier, reason: error.message ?? "\(error)")
            }
        }
        return pending.map(\.identifier)
    }

    // MARK: - Non public

    private func makeDatabaseMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.identifier) { db in
                try db.execute(sql: migration.sql)
                try db.execute(sql: """
                    CREATE TABLE IF NOT EXISTS schemaMigration (
                        identifier TEXT NOT NULL PRIMARY KEY,
                        checksum TEXT NOT NULL,
                        appliedAt TEXT NOT NULL)
                    """)
                try db.execute(
                    sql: "INSERT INTO schemaMigration (identifier, checksum, appliedAt) VALUES (?, ?, ?)",
                    arguments: [migration.identifier, migration.checksum, Timestamp.string(from: Date())])
            }
        }
        return migrator
    }

    private func recordedChecksums(_ db: Database) throws -> [String: (checksum: String, appliedAt: String)] {
        guard try db.tableExists("schemaMigration") else { return [:] }
        var result: [String: (String, String)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT identifier, checksum, appliedAt FROM schemaMigration") {
            // A tampered row may hold NULL, a number or a blob: read as text
            // or not at all (so the check refuses it), never trapped on.
            let values: [DatabaseValue] = [row[0], row[1], row[2]]
            guard let identifier = String.fromDatabaseValue(values[0]),
                  let checksum = String.fromDatabaseValue(values[1]) else { continue }
            result[identifier] = (checksum, String.fromDatabaseValue(values[2]) ?? "")
        }
        return result
    }
}
