import ContactsDBTestSupport
import Foundation
import GRDB
import ContactsDB
import Testing

/// Opening, creating and migrating a database: many processes at once,
/// migration records that were tampered with, and files that are not
/// databases or cannot be written.
@Suite struct OpeningTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    func copyOfVersion1(_ name: String) throws -> String {
        let db = directory.path(name)
        try FileManager.default.copyItem(
            atPath: SchemaUpgradeTests.fixtures.appendingPathComponent("schema-v1.sqlite").path, toPath: db)
        return db
    }

    func files(startingWith prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix(prefix) }.sorted()
    }

    // MARK: - Many processes at once

    /// Eight processes started together on a file that does not exist yet:
    /// every one succeeds, the seed is imported once, and doctor passes.
    @Test func processesCreatingOneDatabaseTogetherAllSucceed() throws {
        for round in 0..<4 {
            let db = directory.path("new\(round).sqlite")
            let results = try cli.runTogether(Array(repeating: ["--db", db, "query", "--count"], count: 8))
            for result in results {
                #expect(result.exitCode == 0, "round \(round): \(result.stderr)")
                #expect(result.stdout == "10\n", "round \(round)")
            }
            #expect(results.filter { $0.stderr.contains("Imported the bundled seed (10 contacts)") }.count == 1,
                    "round \(round): \(results.map(\.stderr))")
            let seeds = try DatabaseQueue(path: db).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM seedImport") }
            #expect(seeds == 1)
            let doctor = try cli.run(db: db, ["doctor"])
            #expect(doctor.exitCode == 0, "\(doctor.stdout)")
        }
    }

    /// Eight processes started together on a database of schema version 1:
    /// every one succeeds, one backup is announced and it is there, and
    /// every contact is intact.
    @Test func processesUpgradingOneDatabaseTogetherAllSucceed() throws {
        for round in 0..<3 {
            let name = "v1-\(round).sqlite"
            let db = try copyOfVersion1(name)
            let results = try cli.runTogether(Array(repeating: ["--db", db, "query", "--count"], count: 8))
            for result in results {
                #expect(result.exitCode == 0, "round \(round): \(result.stderr)")
                #expect(result.stdout == "308\n", "round \(round)")
            }
            let announced = results.compactMap { result in
                result.stderr.split(separator: "\n").first { $0.hasPrefix("Backed up the database to ") }
            }
            #expect(announced.count == 1, "round \(round): \(results.map(\.stderr))")
            let backups = try files(startingWith: name + ".before-")
            #expect(backups.count == 1 && announced.first?.contains(backups[0]) == true, "\(backups) \(announced)")

            let export = SchemaUpgradeTests.withoutNewKeys(try cli.run(db: db, ["export", "--format", "ndjson"]).lines)
            #expect(SchemaUpgradeTests.withoutE164(export) == SchemaUpgradeTests.withoutE164(SchemaUpgradeTests.answers["export"] ?? []))
            #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
            let backupCount = try cli.run(db: directory.path(backups[0]), ["migrate", "--status"])
            #expect(backupCount.lines == ["applied  0001_initial  2026-11-22T01:02:33.394Z"]
                    + SchemaMigration.bundled.dropFirst().map { "pending  " + $0.identifier })
        }
    }

    /// What serializes them: while another holds `PATH-lock`, an open
    /// with work to do waits up to the busy timeout, changes nothing, and
    /// says the database is busy; once it is released, the open goes on.
    @Test func anOpenWaitsForTheLockUpToTheBusyTimeout() throws {
        let db = directory.path("locked.sqlite")
        let descriptor = open(db + "-lock", O_RDWR | O_CREAT, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(flock(descriptor, LOCK_EX) == 0)
        let started = Date()
        let busy = try cli.run(["--db", db, "--busy-timeout", "300", "query", "--count"])
        #expect(busy.exitCode == 74 && busy.stderr.hasPrefix("Error: The database \(db) is busy"), "\(busy.stderr)")
        #expect(Date().timeIntervalSince(started) >= 0.3)
        #expect(try FileManager.default.attributesOfItem(atPath: db)[.size] as? Int == 0, "it was written while locked")
        flock(descriptor, LOCK_UN)
        #expect(try cli.count(db) == 10)
    }

    // MARK: - Migration records

    /// Each way of editing the records, done to a database of this build
    /// (`current`) or of the build before migration 0002 (`version1`, which
    /// still has grdb_migrations), and what the refusal must mention.
    static let tampering: [(name: String, base: String, sql: String, mentions: String)] = {
        let bundled = SchemaMigration.bundled, last = bundled[bundled.count - 1].identifier
        return [
        ("a record removed", "current",
         "DELETE FROM schemaMigration WHERE identifier = '0002_favorites_groups'", "0002_favorites_groups is not recorded"),
        ("the last record removed from both tables", "current", """
            DELETE FROM schemaMigration WHERE identifier = '\(last)';
            DELETE FROM grdb_migrations WHERE identifier = '\(last)';
            """, "header counts \(bundled.count) applied migrations, but \(bundled.count - 1)"),
        ("the last record removed, not from grdb_migrations", "current",
         "DELETE FROM schemaMigration WHERE identifier = '\(last)'",
         "disagree about migration \(last)"),
        ("a record of an earlier build removed", "version1",
         "DELETE FROM schemaMigration", "disagree about migration 0001_initial"),
        ("a checksum changed", "current",
         "UPDATE schemaMigration SET checksum = 'e3b0c442' WHERE identifier = '0003_name_words_in_order'",
         "migration 0003_name_words_in_order with a different checksum"),
        ("a later version", "current",
         "INSERT INTO schemaMigration VALUES ('0099_from_a_newer_build', 'abc', '2030-01-01T00:00:00.000Z')",
         "newer contactsdb (unknown migrations: 0099_from_a_newer_build)"),
        ("another tool's record", "current",
         "INSERT INTO schemaMigration VALUES ('createNotes', 'abc', '2030-01-01T00:00:00.000Z')",
         "a migration \"createNotes\" that is not one of contactsdb's"),
        ("another tool's record in grdb_migrations", "version1",
         "INSERT INTO grdb_migrations VALUES ('v2_addNotes')", "a migration \"v2_addNotes\" that is not one of"),
        ("a column of another type", "current", """
            ALTER TABLE schemaMigration RENAME TO kept;
            CREATE TABLE schemaMigration (identifier TEXT NOT NULL PRIMARY KEY, checksum BLOB NOT NULL, appliedAt TEXT NOT NULL);
            INSERT INTO schemaMigration SELECT * FROM kept;
            DROP TABLE kept;
            """, "does not have the text columns"),
        ("a column dropped", "current", "ALTER TABLE schemaMigration DROP COLUMN appliedAt", "does not have the text columns"),
        ("a value that is not text", "current",
         "UPDATE schemaMigration SET appliedAt = x'00ff' WHERE identifier = '0001_initial'", "holds a value that is not text"),
        ("grdb_migrations of another shape", "version1", """
            DROP TABLE grdb_migrations;
            CREATE TABLE grdb_migrations (id INTEGER PRIMARY KEY, identifier TEXT);
            """, "grdb_migrations table is not the one"),
        ("the header's count changed", "current", "PRAGMA user_version = 99", "header counts 99"),
        ("the record table dropped", "current", "DROP TABLE schemaMigration", "the table schemaMigration is missing"),
        ("both record tables dropped", "current",
         "DROP TABLE schemaMigration; DROP TABLE grdb_migrations", "not a contacts database"),
        ]
    }()

    @Test(arguments: tampering.indices)
    func tamperedMigrationRecordsAreRefusedUntouched(_ index: Int) throws {
        let (name, base, sql, mention) = Self.tampering[index]
        let db: String
        if base == "current" {
            db = directory.path("tampered.sqlite")
            #expect(try cli.run(db: db, ["init"]).exitCode == 0)
        } else {
            db = try copyOfVersion1("tampered.sqlite")
        }
        try DatabaseQueue(path: db).writeWithoutTransaction { db in try db.execute(sql: sql) }
        let before = try files(startingWith: "tampered.sqlite")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db))

        for arguments in [["query"], ["migrate"], ["migrate", "--status"], ["doctor"], ["add", "--first-name", "Nope"]] {
            let result = try cli.run(db: db, arguments)
            #expect(result.exitCode == 74, "\(name), \(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: ") && result.stderr.split(separator: "\n").count == 1,
                    "\(name), \(arguments): \(result.stderr)")
            #expect(result.stderr.contains(mention), "\(name): \(result.stderr)")
            // Doctor also lists it as its finding; the others print nothing.
            #expect(arguments == ["doctor"] ? result.stdout.hasPrefix("PROBLEM file") : result.stdout.isEmpty)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == bytes, "\(name): the file changed")
        #expect(try files(startingWith: "tampered.sqlite") == before, "\(name): files were added beside it")
    }

    /// A build interrupted before its first migration committed left an
    /// empty grdb_migrations behind: the file still counts as new.
    @Test func anEmptyGRDBMigrationsTableIsANewDatabase() throws {
        let db = directory.path("interrupted.sqlite")
        try DatabaseQueue(path: db).write { db in
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        #expect(try cli.count(db) == 10)
        let identifiers = try DatabaseQueue(path: db).read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(identifiers == SchemaMigration.bundled.map(\.identifier))
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
    }

    /// The seed records are read on every `seed` and `doctor`: a value of
    /// the wrong type is an error with a sentence, not a crash.
    @Test func aSeedRecordOfTheWrongTypeIsAnErrorNotACrash() throws {
        let db = directory.path("seeded.sqlite")
        #expect(try cli.run(db: db, ["init"]).exitCode == 0)
        try DatabaseQueue(path: db).write { db in try db.execute(sql: "UPDATE seedImport SET contactCount = 'ten'") }
        for arguments in [["seed"], ["doctor"]] {
            let result = try cli.run(db: db, arguments)
            #expect(result.exitCode == 70, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: ") && result.stderr.contains("seedImport"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    // MARK: - Files that are not databases

    @Test func devicesAndDirectoriesAreRefusedWithoutSideFiles() throws {
        try? FileManager.default.removeItem(atPath: "/dev/zero-journal")
        let dangling = directory.path("dangling.sqlite")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: directory.path("nothing"))
        for path in ["/dev/zero", "/dev/null", directory.url.path, dangling] {
            let result = try cli.run(db: path, ["query"])
            #expect(result.exitCode == 74, "\(path): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: Cannot open the database \(path): it is a"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(!FileManager.default.fileExists(atPath: path + "-journal"), "\(path)-journal was created")
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "\(path)-wal was created")
            #expect(try cli.run(db: path, ["migrate", "--status"]).exitCode == 74)
        }
        #expect(try files(startingWith: "") == ["dangling.sqlite"])
    }

    /// docs/cli.md: the database and its side files are for their owner only,
    /// also when they were made readable to others before this build.
    @Test func anExistingDatabaseOfOursBecomesOwnerOnly() throws {
        let db = directory.path("shared.sqlite")
        #expect(try cli.count(db) == 10)
        // A connection kept open keeps the -wal and -shm files in place.
        let reader = try DatabaseQueue(path: db)
        try reader.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM contact") }
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: db + suffix)
        }
        #expect(try cli.count(db) == 10)
        for suffix in ["", "-wal", "-shm"] {
            let mode = try FileManager.default.attributesOfItem(atPath: db + suffix)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(db + suffix) has mode \(String(mode ?? 0, radix: 8))")
        }
    }

    /// An older database its user may not write, as the file or through its
    /// directory: exit 74 with one sentence, no backup, no change.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "runs the binary as nobody, which needs root and setpriv"))
    func anOlderReadOnlyDatabaseIsRefusedUnchanged() throws {
        var asNobody = CLIRunner()
        asNobody.binary = URL(fileURLWithPath: "/usr/bin/setpriv")
        let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups", CLIRunner.binary.path]
        try #require(try asNobody.run(nobody + ["--version"]).exitCode == 0,
                     "nobody cannot run the built binary; build where other users can read it")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
        // A file nobody may not write in a directory anyone may; a file
        // anyone may write in a directory nobody may not.
        for (folderMode, fileMode) in [(0o777, 0o444), (0o755, 0o666)] {
            let folder = directory.path("folder-\(String(folderMode, radix: 8))")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let db = folder + "/contacts.sqlite"
            try FileManager.default.copyItem(
                atPath: SchemaUpgradeTests.fixtures.appendingPathComponent("schema-v1.sqlite").path, toPath: db)
            try FileManager.default.setAttributes([.posixPermissions: fileMode], ofItemAtPath: db)
            try FileManager.default.setAttributes([.posixPermissions: folderMode], ofItemAtPath: folder)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
            for arguments in [["query", "--count"], ["migrate"]] {
                let result = try asNobody.run(nobody + ["--db", db] + arguments)
                #expect(result.exitCode == 74, "\(arguments): \(result.stderr)")
                #expect(result.stderr.hasPrefix("Error: Cannot open the database \(db): it is read-only"), "\(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == bytes)
            // SQLite's own -wal and -shm of a read may appear; no backup, no lock.
            let beside = try FileManager.default.contentsOfDirectory(atPath: folder)
                .filter { $0 != "contacts.sqlite" && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
            #expect(beside.isEmpty, "\(beside)")
        }
    }
}

extension CLIRunner {
    /// Starts one process per argument list, every one before waiting for
    /// any, so that they race. Each waits up to a minute for the others'
    /// locks: the eighth in line waits for seven opens, which on a loaded
    /// machine can pass the default five seconds; what is tested is that
    /// they take turns, not how fast.
    func runTogether(_ argumentLists: [[String]]) throws -> [Result] {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "CONTACTSDB_PATH")
        environment.merge(self.environment) { _, new in new }
        let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("contactsdb-together-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: outputs) }
        var processes: [(process: Process, out: URL, err: URL)] = []
        for (index, arguments) in argumentLists.enumerated() {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["--busy-timeout", "60000"] + arguments
            process.environment = environment
            let out = outputs.appendingPathComponent("\(index).out"), err = outputs.appendingPathComponent("\(index).err")
            for url in [out, err] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            process.standardInput = FileHandle.nullDevice
            processes.append((process, out, err))
        }
        for entry in processes { try entry.process.run() }
        return try processes.map { entry in
            entry.process.waitUntilExit()
            return Result(
                exitCode: entry.process.terminationStatus,
                stdout: String(decoding: try Data(contentsOf: entry.out), as: UTF8.self),
                stderr: String(decoding: try Data(contentsOf: entry.err), as: UTF8.self))
        }
    }
}
