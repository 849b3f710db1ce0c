import Foundation
import GRDB

/// Applies ``SchemaMigration``s in order, each in its own immediate
/// transaction, and refuses a database that this build must not touch.
///
/// The records are the project's own (see ``MigrationRecordSQL``; GRDB's
/// `grdb_migrations` is only kept for earlier builds and compared): every
/// read of them checks them whole, so tampered, foreign or newer records are
/// refused before anything is written, and every migration re-reads them
/// under SQLite's write lock, so one applied meanwhile by another process is
/// never applied twice.
package struct Migrator {
    package let migrations: [SchemaMigration]

    package init(migrations: [SchemaMigration]) {
        self.migrations = migrations
    }

    /// Where a database stands against this build's migrations.
    package struct Status {
        var applied: [(migration: SchemaMigration, appliedAt: String)]
        var pending: [SchemaMigration]
    }

    // MARK: - Checking

    /// Reads the migration records, without writing.
    ///
    /// - throws: `.notContactsDatabase` for a database with tables but no
    ///   records, `.databaseTooNew` for records of later migrations,
    ///   `.migrationEdited` for a checksum that differs from this build's
    ///   file, and `.migrationRecordsDamaged` for anything else that does not
    ///   add up: a record missing, another tool's record, a record table of
    ///   another shape.
    package func status(_ db: Database, path: String) throws -> Status {
        let tables = Set(try String.fetchAll(db, sql: MigrationRecordSQL.tableNames))
        let legacy = tables.contains(MigrationRecordSQL.legacyTable) ? try legacyIdentifiers(db, path: path) : nil
        guard tables.contains(MigrationRecordSQL.recordTable) else {
            // A build whose first migration was interrupted may have left an
            // empty grdb_migrations behind: that file is still new.
            if tables.subtracting([MigrationRecordSQL.legacyTable]).isEmpty, legacy?.isEmpty ?? true {
                return Status(applied: [], pending: migrations)
            }
            if let legacy, legacy.contains(where: { identifier in migrations.contains { $0.identifier == identifier } }) {
                throw damaged(path, "the table schemaMigration is missing")
            }
            throw ContactsDBError.notContactsDatabase(path: path, reason: "it has tables but no migration records")
        }
        let records = try self.records(db, path: path)

        let known = Set(migrations.map(\.identifier))
        let unknown = Set(records.map(\.identifier) + (legacy ?? [])).subtracting(known).sorted()
        if let foreign = unknown.first(where: { !isLater($0) }) {
            throw damaged(path, "it records a migration \"\(foreign)\" that is not one of contactsdb's")
        }
        guard unknown.isEmpty else {
            throw ContactsDBError.databaseTooNew(path: path, unknownMigrations: unknown)
        }

        let byIdentifier = Dictionary(records.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        guard byIdentifier.count == records.count else {
            throw damaged(path, "it records a migration twice")
        }
        var status = Status(applied: [], pending: [])
        for migration in migrations {
            guard let record = byIdentifier[migration.identifier] else {
                status.pending.append(migration)
                continue
            }
            guard record.checksum == migration.checksum else {
                throw ContactsDBError.migrationEdited(path: path, migration: migration.identifier)
            }
            if let missing = status.pending.first {
                throw damaged(path, "migration \(missing.identifier) is not recorded, though \(migration.identifier) after it is")
            }
            status.applied.append((migration, record.appliedAt))
        }

        if let legacy, let differing = Set(legacy).symmetricDifference(byIdentifier.keys).sorted().first {
            throw damaged(path, "schemaMigration and grdb_migrations disagree about migration \(differing)")
        }
        let counted = try Int.fetchOne(db, sql: MigrationRecordSQL.recordedCount) ?? 0
        // Earlier builds left the header's count at 0 and kept
        // grdb_migrations, checked above instead.
        if counted != records.count, counted != 0 || legacy == nil {
            throw damaged(path, "the file's header counts \(counted) applied migrations, but \(records.count) are recorded")
        }
        return status
    }

    // MARK: - Applying

    /// Applies every pending migration, each in its own immediate
    /// transaction, and returns the identifiers of those this call applied.
    /// A failing migration is rolled back whole and the error names it; the
    /// ones before it stay applied.
    package func migrate(_ writer: some DatabaseWriter, path: String) throws -> [String] {
        var applied: [String] = []
        while let migration = try writer.writeWithoutTransaction({ db in try applyNext(db, path: path) }) {
            applied.append(migration)
        }
        return applied
    }

    // MARK: - Non public

    private typealias Record = (identifier: String, checksum: String, appliedAt: String)

    /// Applies the first pending migration, as the records say once the
    /// write lock is held; nil when none is pending. A table rebuilt in a
    /// migration must not cascade, so the keys are checked before the
    /// commit rather than row by row.
    private func applyNext(_ db: Database, path: String) throws -> String? {
        try Connection.withoutForeignKeyChecks(db) { try applyPending(db, path: path) }
    }

    private func applyPending(_ db: Database, path: String) throws -> String? {
        var applied: String?
        try db.inTransaction(.immediate) {
            let status = try status(db, path: path)
            guard let migration = status.pending.first else { return .commit }
            do {
                // Rows the migration rewrites get a revision of their own.
                if try ChangeLog.hasClock(db) { try ChangeLog.advance(db) }
                try db.execute(sql: migration.sql)
            } catch let error as DatabaseError where Self.isFaultOfTheMigration(error) {
                throw ContactsDBError.migrationFailed(migration: migration.identifier, reason: error.message ?? "\(error)")
            }
            guard try Row.fetchOne(db, sql: MigrationRecordSQL.foreignKeyViolations) == nil else {
                throw ContactsDBError.migrationFailed(
                    migration: migration.identifier, reason: "it leaves rows that point at missing rows")
            }
            try db.execute(sql: MigrationRecordSQL.createRecordTable)
            try db.execute(
                sql: MigrationRecordSQL.insertRecord,
                arguments: [migration.identifier, migration.checksum, Timestamp.string(from: Date())])
            try db.execute(sql: MigrationRecordSQL.createLegacyTable)
            try db.execute(sql: MigrationRecordSQL.insertLegacy, arguments: [migration.identifier])
            try db.execute(sql: MigrationRecordSQL.setRecordedCount(status.applied.count + 1))
            applied = migration.identifier
            return .commit
        }
        return applied
    }

    /// Errors of the migration's SQL itself, as opposed to the file's
    /// (busy, read-only, full, I/O), which are reported as such.
    private static func isFaultOfTheMigration(_ error: DatabaseError) -> Bool {
        [.SQLITE_ERROR, .SQLITE_CONSTRAINT, .SQLITE_MISMATCH, .SQLITE_TOOBIG, .SQLITE_RANGE].contains(error.resultCode)
    }

    /// The rows of `schemaMigration`, once its columns and every value are
    /// known to be text, so that nothing below can trap on a stray NULL.
    private func records(_ db: Database, path: String) throws -> [Record] {
        let columns = try Row.fetchAll(db, sql: MigrationRecordSQL.columns, arguments: [MigrationRecordSQL.recordTable])
            .map { [$0[0] as String?, $0[1] as String?] }
        guard columns == [["identifier", "TEXT"], ["checksum", "TEXT"], ["appliedAt", "TEXT"]] else {
            throw damaged(path, "its schemaMigration table does not have the text columns identifier, checksum and appliedAt")
        }
        guard try Int.fetchOne(db, sql: MigrationRecordSQL.nonTextRecordCount) == 0 else {
            throw damaged(path, "schemaMigration holds a value that is not text")
        }
        return try Row.fetchAll(db, sql: MigrationRecordSQL.records).compactMap { row in
            guard let identifier = row[0] as String?, let checksum = row[1] as String?, let appliedAt = row[2] as String?
            else { return nil }
            return (identifier, checksum, appliedAt)
        }
    }

    private func legacyIdentifiers(_ db: Database, path: String) throws -> [String] {
        let columns = try Row.fetchAll(db, sql: MigrationRecordSQL.columns, arguments: [MigrationRecordSQL.legacyTable])
            .map { $0[0] as String? }
        guard columns == ["identifier"],
              try Int.fetchOne(db, sql: MigrationRecordSQL.nonTextLegacyCount) == 0
        else {
            throw damaged(path, "its grdb_migrations table is not the one contactsdb wrote")
        }
        return try String.fetchAll(db, sql: MigrationRecordSQL.legacyIdentifiers)
    }

    /// Whether `identifier` names a migration numbered after every one this
    /// build has (`0007_…` when the last is `0004_…`): a newer build's.
    private func isLater(_ identifier: String) -> Bool {
        guard let number = Self.number(identifier) else { return false }
        return number > (migrations.compactMap { Self.number($0.identifier) }.max() ?? 0)
    }

    private static func number(_ identifier: String) -> Int? {
        let digits = identifier.prefix { $0.isASCII && $0.isNumber }
        guard digits.count == 4, identifier.dropFirst(4).first == "_", identifier.count > 5 else { return nil }
        return Int(digits)
    }

    private func damaged(_ path: String, _ reason: String) -> ContactsDBError {
        .migrationRecordsDamaged(path: path, reason: reason)
    }
}
