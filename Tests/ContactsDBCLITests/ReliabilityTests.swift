@testable import ContactsDB
@testable import ContactsDBSynthetic
import ContactsDBTestSupport
import Foundation
import GRDB
import Testing

/// Several real processes on one database file, locks, and `doctor`.
@Suite struct ReliabilityTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    @Test func doctorSaysAllIsWellOrWhatToFix() throws {
        let db = directory.path("doctor.sqlite")
        let healthy = try cli.run(db: db, ["doctor"])
        #expect(healthy.exitCode == 0, "\(healthy.stdout)")
        #expect(healthy.lines.count == 12 && healthy.lines.allSatisfy { $0.hasPrefix("ok") }, "\(healthy.stdout)")

        try DatabaseQueue(path: db).write { db in try db.execute(sql: "UPDATE sectionCount SET count = count + 5") }
        let sick = try cli.run(db: db, ["doctor"])
        #expect(sick.exitCode == 70)
        #expect(sick.stdout.contains("PROBLEM counts") && sick.stdout.contains("contactsdb reindex"), "\(sick.stdout)")

        #expect(try cli.run(db: db, ["reindex"]).exitCode == 0)
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)

        // Attributes and name words that disagree with the children and the
        // word index: found, and mended by reindex without losing a child.
        let children = try DatabaseQueue(path: db).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM phone") }
        try DatabaseQueue(path: db).write { db in
            try db.execute(sql: "UPDATE contact SET attributes = 0, nameWords = ' x' WHERE pk = (SELECT min(contactPk) FROM phone)")
        }
        let drifted = try cli.run(db: db, ["doctor"])
        #expect(drifted.stdout.contains("PROBLEM attributes") && drifted.stdout.contains("PROBLEM name words"), "\(drifted.stdout)")
        #expect(try cli.run(db: db, ["reindex"]).exitCode == 0)
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
        #expect(try DatabaseQueue(path: db).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM phone") } == children)

        // A contact in no book: found, with the move that mends it.
        try DatabaseQueue(path: db).write { db in try db.execute(sql: "UPDATE contact SET bookId = 99 WHERE id = 'seed-acme'") }
        let homeless = try cli.run(db: db, ["doctor"])
        #expect(homeless.exitCode == 70 && homeless.stdout.contains("PROBLEM books"), "\(homeless.stdout)")
        #expect(try cli.run(db: db, ["move", "seed-acme", "--to", "local"]).exitCode == 0)
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
    }

    /// A smashed file is reported as doctor's finding, with the fix: pages
    /// overwritten in the middle, and a header that is no longer SQLite's.
    @Test func doctorReportsASmashedFile() throws {
        for (name, offset) in [("pages", 4096 * 4), ("header", 0)] {
            let db = directory.path("smashed-\(name).sqlite")
            let many = directory.write("many.json", try cli.run(["generate", "--contacts", "500"]).stdout)
            #expect(try cli.run(db: db, ["import", many]).exitCode == 0)
            #expect(try cli.run(db: db, ["backup", db + ".copy"]).exitCode == 0)
            // The checkpointed copy holds every page in the main file.
            try FileManager.default.removeItem(atPath: db)
            try FileManager.default.moveItem(atPath: db + ".copy", toPath: db)
            let handle = try #require(FileHandle(forUpdatingAtPath: db))
            try handle.seek(toOffset: UInt64(offset))
            try handle.write(contentsOf: Data(repeating: 0xA5, count: 8192))
            try handle.close()
            let doctor = try cli.run(db: db, ["doctor"])
            #expect(doctor.exitCode == 74 || doctor.exitCode == 70, "\(name): \(doctor.stdout) \(doctor.stderr)")
            #expect(doctor.stdout.contains("PROBLEM"), "\(name): \(doctor.stdout) \(doctor.stderr)")
            #expect(doctor.stdout.contains("corrupt") || doctor.stdout.contains("not an SQLite database")
                    || doctor.stdout.contains("integrity"), "\(name): \(doctor.stdout)")
        }
    }

    @Test func aWriterThatWaitsTooLongIsToldTheDatabaseIsBusy() throws {
        let db = directory.path("busy.sqlite")
        #expect(try cli.count(db) == 10)
        // Another process's writer: holds the write lock until released.
        let holder = try DatabaseQueue(path: db)
        let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchGroup()
        done.enter()
        DispatchQueue.global().async {
            try? holder.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                locked.signal()
                release.wait()
                try db.execute(sql: "ROLLBACK")
            }
            done.leave()
        }
        locked.wait()

        let blocked = try cli.run(["--busy-timeout", "200", "--db", db, "add", "--first-name", "Late"])
        #expect(blocked.exitCode == 74, "\(blocked.stderr)")
        #expect(blocked.stderr.contains("is busy"), "\(blocked.stderr)")
        #expect(try cli.run(db: db, ["query", "--count"]).stdout == "10\n", "a reader waited for the writer")

        release.signal()
        done.wait()
        #expect(try cli.run(db: db, ["add", "--first-name", "Late"]).exitCode == 0)
        #expect(try cli.count(db) == 11)
    }

    /// Adders, an updater, a deleter and a reader, each a stream of
    /// processes, on one file at once: every write lands, none is lost.
    @Test func concurrentProcessesLoseNoWrite() throws {
        let db = directory.path("shared.sqlite")
        #expect(try cli.count(db) == 10)
        let seedIDs = ["seed-acme", "seed-anna-muller", "seed-eloise-durand", "seed-john-smith", "seed-zoe-oconnor"]
        let failures = Failures()
        let group = DispatchGroup()
        func worker(_ body: @escaping @Sendable () throws -> [String]) {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                do { failures.add(try body()) } catch { failures.add(["\(error)"]) }
            }
        }
        let cli = self.cli
        for adder in 0..<3 {
            worker {
                try (0..<8).compactMap { index in
                    let result = try cli.run(db: db, ["add", "--first-name", "Adder\(adder)", "--last-name", "N\(index)"])
                    return result.exitCode == 0 ? nil : "add: \(result.stderr)"
                }
            }
        }
        worker {
            try (1...8).compactMap { age in
                let result = try cli.run(db: db, ["update", "seed-ivan-petrov", "--age", String(age)])
                return result.exitCode == 0 ? nil : "update: \(result.stderr)"
            }
        }
        worker {
            try seedIDs.compactMap { id in
                let result = try cli.run(db: db, ["delete", id])
                return result.exitCode == 0 ? nil : "delete: \(result.stderr)"
            }
        }
        worker {
            try (0..<8).compactMap { _ in
                let result = try cli.run(db: db, ["query", "--count"])
                let seen = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
                return result.exitCode == 0 && (5...34).contains(seen) ? nil : "query saw \(seen): \(result.stderr)"
            }
        }
        group.wait()
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(try cli.count(db) == 10 - 5 + 24)
        #expect(try cli.run(db: db, ["show", "seed-ivan-petrov", "--format", "json"]).stdout.contains("\"age\": 8"))
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
    }

    /// A reader never sees part of an import: before it, or all of it.
    @Test func readersSeeAnImportWholeOrNotAtAll() throws {
        let db = try cli.makeEmptyDatabase("atomic.sqlite", in: directory)
        let file = directory.write("many.json", try ContactsFixture.json(count: 1500))
        let importer = DispatchGroup()
        importer.enter()
        let cli = self.cli
        DispatchQueue.global().async {
            _ = try? cli.run(db: db, ["import", file])
            importer.leave()
        }
        var seen: Set<Int> = []
        while importer.wait(timeout: .now()) == .timedOut {
            seen.insert(try cli.count(db))
        }
        seen.insert(try cli.count(db))
        #expect(seen.isSubset(of: [0, 1500]), "\(seen.sorted())")
        #expect(seen.contains(1500))
    }

    /// Runs the binary and sends it SIGKILL after `microseconds` (unless it
    /// finished); returns whether it finished successfully first.
    static func run(_ arguments: [String], killedAfter microseconds: Int) throws -> Bool {
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(UInt32(microseconds))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .exit && process.terminationStatus == 0
    }

    /// `import` killed with SIGKILL at random moments: the next open finds
    /// the database intact and the import there whole or not at all.
    @Test func aKilledImportLeavesAllOrNothing() throws {
        let db = try cli.makeEmptyDatabase("killed.sqlite", in: directory)
        // Without ids, so that every completed trial adds its contacts again.
        let json = try ContactsFixture.json(count: 3000)
            .replacingOccurrences(of: #""id": "c[0-9]+", "#, with: "", options: .regularExpression)
        let file = directory.write("batch.json", json)
        var random = SplitMix64(seed: 11)
        var expected = 0, killedMidway = 0
        for _ in 0..<6 {
            let completed = try Self.run(["--db", db, "import", file], killedAfter: 50_000 + random.below(1_500_000))
            let found = try cli.count(db)
            if completed {
                #expect(found == expected + 3000, "after a finished import")
            } else {
                // A kill between the commit and the exit finds the import whole.
                #expect(found == expected || found == expected + 3000, "a killed import left \(found - expected) contacts")
                if found == expected { killedMidway += 1 }
            }
            expected = found
            #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
        }
        #expect(killedMidway >= 3, "the kills came too late to test anything")
        print("killed import: 6 trials, \(killedMidway) killed midway, \(6 - killedMidway) finished")
    }

    /// An import large enough to drop and rebuild its indexes (10,000
    /// contacts into an empty database drops them after the 5,000th),
    /// killed while they are gone or being rebuilt: the next open finds the
    /// schema whole and the import there whole or not at all.
    @Test func aKilledImportWhileItsIndexesAreDroppedLeavesAllOrNothing() throws {
        let template = directory.path("deferred.sqlite")
        #expect(try cli.run(db: template, ["init", "--no-seed"]).exitCode == 0)
        let schema = try schemaRows(at: template)
        let file = directory.write("deferred.json", try ContactsFixture.json(count: 10_000))
        // Time one whole import, then kill others between 55% and 85% of
        // that time: past the 5,000th contact, before the commit, with room
        // for the machine to run faster or slower than it did.
        let timed = directory.path("timed.sqlite")
        try FileManager.default.copyItem(atPath: template, toPath: timed)
        let start = Date()
        #expect(try cli.run(db: timed, ["import", file]).exitCode == 0)
        let duration = Date().timeIntervalSince(start)
        var random = SplitMix64(seed: 17)
        var outcomes = (killed: 0, finished: 0)
        for trial in 0..<4 {
            let db = directory.path("deferred\(trial).sqlite")
            try FileManager.default.copyItem(atPath: template, toPath: db)
            let delay = duration * (0.55 + Double(random.below(300)) / 1000)
            let completed = try Self.run(["--db", db, "import", file], killedAfter: Int(delay * 1_000_000))
            let found = try cli.count(db)
            #expect(found == 10_000 || (!completed && found == 0), "trial \(trial) left \(found) contacts")
            if found == 0 { outcomes.killed += 1 } else { outcomes.finished += 1 }
            #expect(try schemaRows(at: db) == schema, "trial \(trial) changed the schema")
            #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
        }
        #expect(outcomes.killed >= 1, "every kill came after the commit: nothing was tested")
        print("killed deferred import: 4 trials, \(outcomes.killed) killed before the commit, \(outcomes.finished) finished")
    }

    /// `migrate` killed with SIGKILL at random moments on a database at
    /// schema version 1: the next open finds it intact, and each later
    /// migration applied whole or not at all (each is its own transaction).
    @Test func aKilledMigrationLeavesAllOrNothing() throws {
        // The recorded version-1 database, grown to about 5,000 contacts with
        // plain SQL (this build's writer only writes the latest schema).
        let template = directory.path("v1.sqlite")
        try FileManager.default.copyItem(
            atPath: SchemaUpgradeTests.fixtures.appendingPathComponent("schema-v1.sqlite").path, toPath: template)
        let columns = "firstName, lastName, company, age, displayName, sortName, sectionKey, sortIndex, sortKey, "
            + "firstNameKey, lastNameKey, companyKey, companyFolded, attributes, createdAt, updatedAt"
        // The copies have no children, so their attributes are 0.
        try DatabaseQueue(path: template).write { db in
            try db.execute(sql: """
                WITH RECURSIVE copy(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM copy WHERE n < 15)
                INSERT INTO contact (id, \(columns))
                SELECT contact.id || '-' || n, \(columns.replacingOccurrences(of: "attributes", with: "0"))
                FROM contact, copy
                """)
        }
        let contactCount = try DatabaseQueue(path: template).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM contact") }
        // Each migration after 0001, and whether a database shows any of it.
        let listed: [(id: String, isPresent: (Database) throws -> Bool)] = [
            ("0002_favorites_groups", { db in
                try db.tableExists("contactGroup") && db.columns(in: "contact").contains { $0.name == "favoritePosition" }
            }),
            ("0003_name_words_in_order", { db in try db.columns(in: "contact").contains { $0.name == "nameWords" } }),
            ("0004_phone_windows", { db in try db.tableExists("phoneWindow") }),
            ("0005_derived_table_sources", { db in try db.viewExists("phoneDigitsOf") }),
            ("0006_whole_card", { db in try db.tableExists("extraProperty") }),
            ("0007_changes", { db in try db.tableExists("changeClock") }),
            ("0008_photos", { db in try db.tableExists("contactPhoto") }),
            ("0009_search", { db in try db.tableExists("contactSearch") }),
            ("0010_upcoming_dates", { db in
                try Bool.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'contactDate_on_day'") ?? false
            }),
            ("0011_phone_display", { db in try db.columns(in: "phone").contains { $0.name == "display" } }),
            ("0012_carddav_sync", { db in try db.tableExists("syncedCard") }),
            ("0013_sync_pushes", { db in try db.tableExists("syncPush") }),
            ("0014_merges", { db in try db.tableExists("contactMerge") }),
            ("0015_group_cards", { db in try db.tableExists("groupPendingMember") }),
            ("0016_group_sync", { db in try db.tableExists("syncedGroup") }),
            ("0017_books", { db in try db.tableExists("book") }),
            ("0018_merge_ids", { db in try db.tableExists("contactMergeSequence") }),
            ("0019_links", { db in try db.tableExists("contactApart") }),
            ("0020_group_names", { db in
                try db.tableExists("contactGroup") && db.columns(in: "contactGroup").contains { $0.name == "cardName" }
            }),
            ("0021_person_keys", { db in try db.columns(in: "contact").contains { $0.name == "personAttributes" } }),
            ("0022_trash_history", { db in try db.tableExists("trashedContact") }),
            ("0023_kept_both", { db in try db.tableExists("keptBoth") }),
            ("0024_contact_returns", { db in try db.tableExists("contactReturn") }),
            ("0025_person_order_columns", { db in
                try Bool.fetchOne(db, sql: "SELECT count(*) FROM pragma_index_info('contact_on_company_desc') WHERE name = 'isPersonHead'")
                    ?? false
            }),
            ("0026_synced_cards_by_rowid", { db in
                try Bool.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'syncedCard_on_etag'") ?? false
            }),
        ]
        let upgrades = try listed + SchemaMigration.bundled.dropFirst(listed.count + 1).map { migration in
            (migration.identifier, try Self.firstObject(createdBy: migration.sql))
        }
        var random = SplitMix64(seed: 13)
        var stops = Array(repeating: 0, count: upgrades.count + 1), killedAfterBackup = 0
        for trial in 0..<8 {
            let db = directory.path("trial\(trial).sqlite")
            try FileManager.default.copyItem(atPath: template, toPath: db)
            _ = try Self.run(["--db", db, "migrate"], killedAfter: 20_000 + random.below(120_000))
            let status = try ContactStore.migrationStatus(at: db)
            guard let applied = (0...upgrades.count).first(where: { status.pending == upgrades.dropFirst($0).map(\.id) }) else {
                Issue.record("trial \(trial) stopped out of order: \(status)")
                continue
            }
            stops[applied] += 1
            let hasBackup = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
                .contains { $0.hasPrefix("trial\(trial).sqlite.before-") }
            if applied == 0, hasBackup { killedAfterBackup += 1 }
            let (integrity, present) = try DatabaseQueue(path: db).read { db in
                (try String.fetchAll(db, sql: "PRAGMA integrity_check"), try upgrades.map { try $0.isPresent(db) })
            }
            #expect(integrity == ["ok"])
            for (index, upgrade) in upgrades.enumerated() {
                #expect(present[index] == (index < applied), "trial \(trial) holds part of \(upgrade.id)")
            }
            #expect(try cli.run(db: db, ["query", "--count"]).stdout == "\(contactCount ?? -1)\n")
            #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
        }
        #expect(stops.dropLast().reduce(0, +) >= 1, "every kill came after the last migration: nothing was tested")
        print("killed migration: 8 trials stopped after 0001…0006: \(stops) (\(killedAfterBackup) of those at 0001 after the backup began)")
    }

    /// What shows a migration the list above does not name: the first
    /// table, view, index or trigger it creates. One that first re-creates
    /// an object of an earlier migration (a view rewritten) would seem
    /// applied before it ran, and the test fail: such a one is listed.
    private static func firstObject(createdBy sql: String) throws -> (Database) throws -> Bool {
        let made = /CREATE\s+(?:UNIQUE\s+)?(?:TABLE|VIEW|INDEX|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)/
        let match = try #require(sql.firstMatch(of: made), "a migration the test does not list creates nothing it can find")
        let name = String(match.output.1)
        return { db in try Bool.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = ?", arguments: [name]) ?? false }
    }

    /// Random arguments from the CLI's own vocabulary and hostile values:
    /// parsing never traps, and every run ends with a documented exit code
    /// (docs/cli.md, "Exit codes") and, on failure, one "Error:" line first.
    @Test func fuzzedArgumentsGetDocumentedExitCodes() throws {
        let words = ["query", "show", "add", "update", "delete", "seed", "import", "export", "migrate", "favorite",
                     "group", "create", "add", "doctor", "--has", "telegram", "--name", "--phone", "--sort",
                     "last-name:desc", "--limit", "-1", "--offset", "99999999999999999999", "--format", "csv",
                     "--first-name", "--age", "1000", "--email", "--messenger", "--json", "-", "--count",
                     "--sections", "--section", "#", "--group", "--position", "0", "seed-acme", "'; DROP TABLE contact; --",
                     "%_", String(repeating: "я", count: 2000), "\u{202E}", "--", "--db", "/dev/null", "--busy-timeout"]
        var random = SplitMix64(seed: 77)
        let db = directory.path("fuzz.sqlite")
        #expect(try cli.count(db) == 10)
        let codes: Set<Int32> = [0, 1, 64, 65, 66, 70, 74]
        var runs = 0
        for _ in 0..<40 {
            let arguments = (0..<(1 + random.below(6))).map { _ in words[random.below(words.count)] }
            let result = try cli.run(["--db", db] + arguments, stdin: "")
            runs += 1
            #expect(codes.contains(result.exitCode), "\(arguments) exited \(result.exitCode): \(result.stderr)")
            if result.exitCode != 0 {
                #expect(result.stderr.hasPrefix("Error: "), "\(arguments): \(result.stderr.prefix(200))")
            }
        }
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
        print("fuzzed arguments: \(runs) runs")
    }

    /// A database its user may read but not write: a write fails with exit
    /// 74 and one clear sentence, and the file is unchanged.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "runs the binary as nobody, which needs root and setpriv"))
    func aReadOnlyDatabaseIsRefusedUnchanged() throws {
        let folder = directory.path("readonly")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let db = folder + "/contacts.sqlite"
        #expect(try cli.count(db) == 10)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: db)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: db))
        var asNobody = CLIRunner()
        asNobody.binary = URL(fileURLWithPath: "/usr/bin/setpriv")
        let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups", CLIRunner.binary.path]
        try #require(try asNobody.run(nobody + ["--version"]).exitCode == 0,
                     "nobody cannot run the built binary; build where other users can read it")
        for arguments in [["add", "--first-name", "Nope"], ["delete", "seed-acme"]] {
            let result = try asNobody.run(nobody + ["--db", db] + arguments)
            #expect(result.exitCode == 74, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: Cannot open the database"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == bytes)
    }

    @Test func theDatabaseAndItsSideFilesAreForTheOwnerOnly() throws {
        let db = directory.path("private.sqlite")
        #expect(try cli.run(db: db, ["add", "--first-name", "Private"]).exitCode == 0)
        // A connection kept open keeps the -wal and -shm files in place.
        let reader = try DatabaseQueue(path: db)
        try reader.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM contact") }
        for suffix in ["", "-wal", "-shm"] {
            #expect(FileManager.default.fileExists(atPath: db + suffix), "\(db + suffix) is missing")
            let mode = try FileManager.default.attributesOfItem(atPath: db + suffix)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(db + suffix) has mode \(String(mode ?? 0, radix: 8))")
        }
    }
}

/// Failure messages gathered from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    var all: [String] { lock.withLock { messages } }
    func add(_ more: [String]) { lock.withLock { messages += more } }
}
