import ContactsDBTestSupport
import Foundation
import GRDB
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

@Suite struct MigratorTests {
    let directory = TemporaryDirectory()

    static let version2 = SchemaMigration(identifier: "0099_petName", sql: """
        ALTER TABLE contact ADD COLUMN petName TEXT;
        CREATE INDEX contact_on_petName ON contact(petName);
        """)

    @Test func bundledMigrationsAreTheFilesOfSchemaFolder() throws {
        let schema = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Schema")
        let files = try FileManager.default.contentsOfDirectory(atPath: schema.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(SchemaMigration.bundled.map { $0.identifier + ".sql" } == files)
        for migration in SchemaMigration.bundled {
            let text = try String(contentsOf: schema.appendingPathComponent(migration.identifier + ".sql"), encoding: .utf8)
            #expect(migration.sql == text, "\(migration.identifier) differs from its file")
        }
    }

    @Test func freshFileReachesLatestVersion() throws {
        let path = directory.path("fresh.sqlite")
        let store = try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled))
        #expect(store.openReport.appliedMigrations == SchemaMigration.bundled.map(\.identifier))
        let status = try ContactStore.migrationStatus(at: path)
        #expect(status.pending.isEmpty)
        #expect(status.applied.map(\.identifier) == SchemaMigration.bundled.map(\.identifier))
        let reopened = try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled))
        #expect(reopened.openReport.appliedMigrations.isEmpty)
    }

    @Test func upgradeKeepsEveryRow() throws {
        let path = directory.path("upgrade.sqlite")
        let old = try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled))
        let drafts = Array(SyntheticContacts(count: 200, seed: 7))
        try old.add(drafts)
        let before = try old.contacts(matching: ContactQuery())
        let countsBefore = try old.tableCounts()

        let upgraded = try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled + [Self.version2]))
        #expect(upgraded.openReport.appliedMigrations == ["0099_petName"])
        #expect(try upgraded.contacts(matching: ContactQuery()) == before)
        #expect(try upgraded.tableCounts() == countsBefore)
        let columns = try upgraded.read { db in try db.columns(in: "contact").map(\.name) }
        #expect(columns.contains("petName"))
    }

    @Test func aBackupIsTakenBeforeMigratingADatabaseThatHoldsContacts() throws {
        let path = directory.path("kept.sqlite")
        let old = try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled))
        #expect(old.openReport.backupBeforeMigration == nil, "a new database was backed up")
        try old.add(ContactDraft(firstName: "Keep", lastName: "Me"))

        let stale = (0..<4).map { directory.path("kept.sqlite.before-0002_x-2020010\($0)T000000000.sqlite") }
        for file in stale { _ = FileManager.default.createFile(atPath: file, contents: Data("old".utf8)) }
        // What killed processes leave: a half-written copy, and a name
        // reserved but never filled; and a file that is not a backup.
        let leftovers = [directory.path(".kept.sqlite.before-0002_x-20200105T000000000.sqlite.Xy12.tmp"),
                         directory.path("kept.sqlite.before-0002_x-20200106T000000000-77.sqlite")]
        _ = FileManager.default.createFile(atPath: leftovers[0], contents: Data("half".utf8))
        _ = FileManager.default.createFile(atPath: leftovers[1], contents: nil)
        let unrelated = directory.write("kept.sqlite.before-notes.txt", "mine")
        let upgraded = try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled + [Self.version2]))
        let backup = try #require(upgraded.openReport.backupBeforeMigration)
        #expect(backup.hasPrefix(path + ".before-0099_petName-"))

        let restored = try ContactStore.open(at: backup, options: .migrations(SchemaMigration.bundled))
        #expect(try restored.contacts(matching: ContactQuery()).map(\.displayName) == ["Keep Me"])
        #expect(try restored.read { db in try db.columns(in: "contact").map(\.name) }.contains("petName") == false)
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.contains(".before-") && $0.hasSuffix(".sqlite") }
        #expect(kept.count == 3 && kept.contains((backup as NSString).lastPathComponent), "\(kept)")
        #expect(kept.contains("kept.sqlite.before-0002_x-20200103T000000000.sqlite"), "\(kept)")
        #expect(leftovers.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
        #expect(FileManager.default.fileExists(atPath: unrelated))
        let mode = try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// Threads of one process, each with its own connection, opening one
    /// new file at once: the lock serializes them as it does processes.
    @Test func openingOneNewDatabaseFromManyThreadsMigratesAndSeedsOnce() throws {
        let path = directory.path("shared.sqlite")
        let reports = OpenReports()
        let threads = (0..<8).map { _ in
            Thread {
                do {
                    reports.add(.success(try ContactStore.open(at: path).openReport))
                } catch {
                    reports.add(.failure(error))
                }
            }
        }
        threads.forEach { $0.start() }
        while reports.count < threads.count { usleep(10_000) }
        let opened = try reports.all.map { try $0.get() }
        #expect(opened.filter { $0.seedImport != nil }.count == 1)
        #expect(opened.map(\.appliedMigrations).filter { !$0.isEmpty } == [SchemaMigration.bundled.map(\.identifier)])
        #expect(try ContactStore.open(at: path).rowCount("contact") == 10)
    }

    /// The records are read whole before anything is written: each of
    /// these is refused with its own error and the file is unchanged.
    @Test func tamperedRecordsAreRefusedWithTheirOwnError() throws {
        let bundled = SchemaMigration.bundled, last = bundled[bundled.count - 1].identifier
        let cases: [(sql: String, error: ContactsDBError)] = [
            ("""
             DELETE FROM schemaMigration WHERE identifier = '\(last)';
             DELETE FROM grdb_migrations WHERE identifier = '\(last)';
             """, .migrationRecordsDamaged(path: "", reason: """
                the file's header counts \(bundled.count) applied migrations, but \(bundled.count - 1) are recorded
                """)),
            ("UPDATE schemaMigration SET checksum = 'x' WHERE identifier = '0001_initial'",
             .migrationEdited(path: "", migration: "0001_initial")),
            ("INSERT INTO schemaMigration VALUES ('0100_later', 'x', 'y')",
             .databaseTooNew(path: "", unknownMigrations: ["0100_later"])),
            ("INSERT INTO schemaMigration VALUES ('0002_petName', 'x', 'y')", .migrationRecordsDamaged(
                path: "", reason: "it records a migration \"0002_petName\" that is not one of contactsdb's")),
        ]
        for (index, (sql, expected)) in cases.enumerated() {
            let path = directory.path("tampered\(index).sqlite")
            _ = try ContactStore.open(at: path)
            try DatabaseQueue(path: path).writeWithoutTransaction { db in try db.execute(sql: sql) }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let error = captureError { _ = try ContactStore.open(at: path) }
            #expect(error == expected.at(path), "\(sql)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
    }

    @Test func failingMigrationRollsBackWholeAndIsNamed() throws {
        let path = directory.path("failing.sqlite")
        try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled)).add(ContactDraft(firstName: "Kept"))
        let broken = SchemaMigration(identifier: "0002_broken", sql: """
            CREATE TABLE halfDone (id INTEGER PRIMARY KEY);
            INSERT INTO halfDone VALUES (1);
            ALTER TABLE noSuchTable ADD COLUMN x TEXT;
            """)
        let error = captureError {
            _ = try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled + [broken]))
        }
        guard case let .migrationFailed(migration, _)? = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(migration == "0002_broken")
        #expect(error?.errorDescription?.contains("0002_broken") == true)

        let status = try ContactStore.migrationStatus(at: path, migrations: SchemaMigration.bundled + [broken])
        #expect(status.pending == ["0002_broken"])
        let store = try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled))
        #expect(try store.read { db in try db.tableExists("halfDone") } == false)
        #expect(try store.rowCount("contact") == 1)
    }

    /// An upgrade stopped midway (a migration failed, or the process was
    /// killed) and resumed keeps the backup of the version the database
    /// had: resumed ever so often, it takes no backup of a half-upgraded
    /// file, so that one is never rotated out.
    @Test func aResumedUpgradeKeepsTheBackupOfTheVersionTheDatabaseHad() throws {
        // A database of the first schema, with its contacts (the CLI's fixture).
        let path = directory.path("resumed.sqlite")
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ContactsDBCLITests/Fixtures/schema-v1.sqlite")
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        var backups: [String] = []
        // Each stop lands one migration further, as a kill between two would.
        for stop in 2..<(SchemaMigration.bundled.count - 1) {
            var stopping = SchemaMigration.bundled
            stopping[stop] = SchemaMigration(identifier: stopping[stop].identifier, sql: "ALTER TABLE noSuchTable ADD x;")
            #expect(captureError { _ = try ContactStore.open(at: path, options: .migrations(stopping)) } != nil)
            backups = try FileManager.default.contentsOfDirectory(atPath: directory.path("")).filter { $0.contains(".before-") }
            #expect(backups.count == 1 && backups[0].contains("before-\(SchemaMigration.bundled[1].identifier)"), "\(backups)")
        }
        let store = try ContactStore.open(at: path)
        #expect(store.openReport.backupBeforeMigration == directory.path(backups[0]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).filter { $0.contains(".before-") } == backups)
        // The backup is the database as it was: the first migration only.
        let status = try ContactStore.migrationStatus(at: directory.path(backups[0]))
        #expect(status.applied.map(\.identifier) == [SchemaMigration.bundled[0].identifier])
        // Ended, the upgrade leaves nothing behind: the next one backs up anew.
        #expect(try store.read { db in try Settings.value(Settings.upgradeBackupKey, db) } == nil)
    }

    @Test func newerDatabaseIsRefusedWithItsBytesUnchanged() throws {
        let path = directory.path("newer.sqlite")
        _ = try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled + [Self.version2]))
            .add(ContactDraft(firstName: "Future"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        let error = captureError { _ = try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled)) }
        #expect(error == .databaseTooNew(path: path, unknownMigrations: ["0099_petName"]))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func editedMigrationIsDetected() throws {
        let path = directory.path("edited.sqlite")
        _ = try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled + [Self.version2]))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let edited = SchemaMigration(identifier: "0099_petName", sql: Self.version2.sql + "\n-- tweaked\n")

        let error = captureError {
            _ = try ContactStore.open(at: path, options: .migrations(SchemaMigration.bundled + [edited]))
        }
        #expect(error == .migrationEdited(path: path, migration: "0099_petName"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func foreignDatabasesAreRefusedUntouched() throws {
        let sqlitePath = directory.path("other.sqlite")
        try DatabaseQueue(path: sqlitePath).write { db in try db.execute(sql: "CREATE TABLE note (text TEXT)") }
        let textPath = directory.path("notes.txt")
        try Data("just some text, not a database at all".utf8).write(to: URL(fileURLWithPath: textPath))

        for path in [sqlitePath, textPath] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            guard case .notContactsDatabase? = captureError({ _ = try ContactStore.open(at: path) }) else {
                Issue.record("\(path) was not refused as a foreign database")
                continue
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
    }

    @Test func foreignKeysAreEnforced() throws {
        let store = try ContactStore.makeEmpty()
        let error = #expect(throws: DatabaseError.self) {
            try store.writer.write { db in
                try db.execute(sql: "INSERT INTO phone (contactPk, position, type, value, normalized) VALUES (424242, 0, 'mobile', '1', '1')")
            }
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
    }
}

/// What each thread's open gave, gathered under a lock.
private final class OpenReports: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<ContactStore.OpenReport, Error>] = []
    var count: Int { lock.withLock { results.count } }
    var all: [Result<ContactStore.OpenReport, Error>] { lock.withLock { results } }
    func add(_ result: Result<ContactStore.OpenReport, Error>) { lock.withLock { results.append(result) } }
}

private extension ContactsDBError {
    /// The same error about the database at `path`.
    func at(_ path: String) -> ContactsDBError {
        switch self {
        case let .migrationRecordsDamaged(_, reason): return .migrationRecordsDamaged(path: path, reason: reason)
        case let .migrationEdited(_, migration): return .migrationEdited(path: path, migration: migration)
        case let .databaseTooNew(_, unknown): return .databaseTooNew(path: path, unknownMigrations: unknown)
        default: return self
        }
    }
}
