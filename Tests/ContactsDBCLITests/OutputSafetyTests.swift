import ContactsDBTestSupport
import Foundation
import GRDB
import Testing

/// Output that cannot be written is an error (74), never a truncated
/// success; files appear whole or not at all; `export --directory` never
/// writes through what it did not create.
@Suite struct OutputSafetyTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()
    let db: String

    init() throws {
        db = try cli.makeDatabase(in: directory)
    }

    /// Runs the binary with stdout sent to `path`, killing it after
    /// `timeout` seconds so that a hang fails the test instead of stalling it.
    func run(_ arguments: [String], stdoutTo path: String, timeout: TimeInterval = 30) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = arguments
        let errURL = URL(fileURLWithPath: directory.path("stderr-\(UUID().uuidString)"))
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let output = try #require(FileHandle(forWritingAtPath: path))
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = output
        process.standardError = err
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        try output.close()
        try err.close()
        return (process.terminationStatus, try String(contentsOf: errURL, encoding: .utf8))
    }

    // MARK: - Standard output

    @Test(arguments: [
        ["export"], ["export", "--format", "csv"], ["export", "--format", "vcard"],
        ["query", "--format", "csv"], ["query", "--format", "json"], ["query", "--sections", "--format", "json"],
        ["generate", "--contacts", "2000"], ["--help"], ["query", "--help"],
    ])
    func aFullDiskExits74WithOneSentence(_ arguments: [String]) throws {
        let database = arguments[0] == "generate" || arguments.contains("--help") ? [] : ["--db", db]
        let result = try run(database + arguments, stdoutTo: "/dev/full")
        #expect(result.status == 74, "\(arguments): \(result.stderr)")
        #expect(result.stderr == "Error: Cannot write the output: No space left on device.\n", "\(arguments)")
    }

    @Test func aSuccessMessageIsNotClaimedWhenItCannotBeWritten() throws {
        let result = try run(["--db", db, "backup", directory.path("copy.sqlite")], stdoutTo: "/dev/full")
        #expect(result.status == 74)
        #expect(result.stderr == "Error: Cannot write the output: No space left on device.\n")
    }

    @Test func aReaderClosingThePipeEndsTheProcessQuietly() throws {
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["generate", "--contacts", "50000"]
        let out = Pipe()
        let errURL = URL(fileURLWithPath: directory.path("stderr"))
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        _ = try out.fileHandleForReading.read(upToCount: 10)
        try out.fileHandleForReading.close()
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGPIPE)
        #expect(try String(contentsOf: errURL, encoding: .utf8) == "")
    }

    // MARK: - export --directory

    @Test func cardsAreWrittenReadableByTheirOwnerOnlyWithNoLeftovers() throws {
        let cards = directory.path("cards")
        #expect(try cli.run(db: db, ["export", "--format", "vcard", "--directory", cards]).exitCode == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: cards)
        #expect(names.count == 10 && names.allSatisfy { $0.hasSuffix(".vcf") && !$0.hasPrefix(".") }, "\(names)")
        for name in names {
            let attributes = try FileManager.default.attributesOfItem(atPath: cards + "/" + name)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(name)")
            #expect((attributes[.size] as? Int ?? 0) > 0, "\(name)")
        }
        // A second export replaces the cards in place.
        #expect(try cli.run(db: db, ["export", "--format", "vcard", "--directory", cards]).exitCode == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cards).sorted() == names.sorted())
    }

    @Test func aPlantedSymbolicLinkIsRefusedAndTheFileOutsideUntouched() throws {
        let cards = directory.path("cards")
        try FileManager.default.createDirectory(atPath: cards, withIntermediateDirectories: true)
        let outside = directory.write("outside.txt", "not a card\n")
        try FileManager.default.createSymbolicLink(atPath: cards + "/seed-acme.vcf", withDestinationPath: outside)
        let result = try cli.run(db: db, ["export", "--format", "vcard", "--directory", cards])
        #expect(result.exitCode == 74)
        #expect(result.stderr == "Error: Cannot write \(cards)/seed-acme.vcf: a symbolic link is there, which export never follows; remove it or choose another directory.\n")
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "not a card\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cards) == ["seed-acme.vcf"])
    }

    @Test func aPlantedFIFOIsRefusedWithoutWaitingOnIt() throws {
        let cards = directory.path("cards")
        try FileManager.default.createDirectory(atPath: cards, withIntermediateDirectories: true)
        #expect(mkfifo(cards + "/seed-acme.vcf", 0o600) == 0)
        let result = try run(["--db", db, "export", "--format", "vcard", "--directory", cards],
                             stdoutTo: "/dev/null", timeout: 20)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("\(cards)/seed-acme.vcf: a special file"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cards) == ["seed-acme.vcf"])
    }

    // MARK: - backup

    @Test func aKilledBackupLeavesNoFileOrAWholeDatabase() throws {
        // About 100 MB of pages, so that a kill lands while they are copied.
        try DatabaseQueue(path: db).write { db in
            try db.execute(sql: "CREATE TABLE filler (b BLOB)")
            for _ in 0..<100 { try db.execute(sql: "INSERT INTO filler VALUES (randomblob(1000000))") }
        }
        let start = Date()
        #expect(try cli.run(db: db, ["backup", directory.path("timed.sqlite")]).exitCode == 0)
        let duration = Date().timeIntervalSince(start)

        var killedMidCopy = 0
        for (index, fraction) in [0.2, 0.4, 0.6, 0.8, 0.95].enumerated() {
            let destination = directory.path("killed-\(index).sqlite")
            let process = Process()
            process.executableURL = CLIRunner.binary
            process.arguments = ["--db", db, "backup", destination]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(duration * fraction * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            if FileManager.default.fileExists(atPath: destination) {
                let (integrity, contacts) = try DatabaseQueue(path: destination).read { db in
                    (try String.fetchOne(db, sql: "PRAGMA integrity_check"), try Int.fetchOne(db, sql: "SELECT count(*) FROM contact"))
                }
                #expect(integrity == "ok" && contacts == 10, "\(destination)")
            } else if try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
                .contains(where: { $0.hasPrefix(".killed-\(index).sqlite.") }) {
                killedMidCopy += 1
            }
        }
        #expect(killedMidCopy > 0, "no kill landed while the pages were copied")
    }
}
