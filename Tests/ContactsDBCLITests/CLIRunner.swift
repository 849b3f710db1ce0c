import ContactsDBTestSupport
import Foundation
import GRDB
import Testing

/// Runs the built `contactsdb` binary as a separate process.
struct CLIRunner {
    struct Result {
        var exitCode: Int32
        var stdout: String
        var stderr: String
        /// Standard output as bytes, for output that is no text (a photo).
        var stdoutData = Data()
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// The `contactsdb` built beside the test bundle.
    static let binary: URL = {
        let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
            + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for directory in candidates {
            let url = directory.appendingPathComponent("contactsdb")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        fatalError("contactsdb was not built beside the tests (looked in \(candidates.map(\.path)))")
    }()

    var binary = CLIRunner.binary
    var environment: [String: String] = [:]

    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "CONTACTSDB_PATH")
        environment.merge(self.environment) { _, new in new }
        process.environment = environment
        // stderr goes to a file, so that neither pipe can fill up and stall
        // the child while the other is being read.
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("contactsdb-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let err = try FileHandle(forWritingTo: errURL)
        let out = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try err.close()
        let stderrData = try Data(contentsOf: errURL)
        return Result(
            exitCode: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self),
            stdoutData: stdoutData)
    }

    /// Runs against one database file with `--db` before the command.
    func run(db: String, _ arguments: [String], stdin: String? = nil) throws -> Result {
        try run(["--db", db] + arguments, stdin: stdin)
    }

    /// A new database `contacts.sqlite` in `directory`, seeded by `init`.
    func makeDatabase(in directory: TemporaryDirectory) throws -> String {
        let db = directory.path("contacts.sqlite")
        #expect(try run(db: db, ["init"]).exitCode == 0)
        return db
    }

    /// A new database named `name` in `directory` that declined the seed.
    func makeEmptyDatabase(_ name: String, in directory: TemporaryDirectory) throws -> String {
        let db = directory.path(name)
        #expect(try run(db: db, ["init", "--no-seed"]).exitCode == 0)
        return db
    }

    /// Imports one contact, named N, for each of `ids`, which must succeed.
    func importContacts(ids: [String], into db: String, in directory: TemporaryDirectory) throws {
        let json = "[" + ids.map { "{\"id\": \"\($0)\", \"firstName\": \"N\"}" }.joined(separator: ",") + "]"
        let imported = try run(db: db, ["import", directory.write("ids-\(UUID().uuidString).json", json)])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
    }

    /// The peak resident memory, in KB, that GNU time's `-f %M -o PATH`
    /// wrote to `path`.
    static func peakKilobytes(writtenTo path: String) throws -> Int {
        Int((try String(contentsOfFile: path, encoding: .utf8)).split(separator: "\n").last ?? "") ?? .max
    }

    /// `changes --format ndjson`, which must succeed: the changes, and the
    /// token its last line holds.
    func changes(_ db: String, since: String? = nil) throws -> (changes: [[String: Any]], token: String) {
        let result = try run(db: db, ["changes", "--format", "ndjson"] + (since.map { ["--since", $0] } ?? []))
        #expect(result.exitCode == 0, "\(result.stderr)")
        let objects = try result.lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        return (Array(objects.dropLast()), objects.last?["token"] as? String ?? "")
    }

    /// `query --count`, which must succeed.
    func count(_ db: String) throws -> Int {
        let result = try run(db: db, ["query", "--count"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}

/// Every table, index, view and trigger of a database file, with its SQL,
/// read straight from `sqlite_master`.
extension CLIRunner {
    /// The schema of `upgraded` once migrated, and of a new database made
    /// at `fresh`: an upgrade must end where a new database starts.
    func schemas(migrating upgraded: String, andMaking fresh: String) throws -> (upgraded: [Row], fresh: [Row]) {
        #expect(try run(db: upgraded, ["migrate"]).exitCode == 0)
        #expect(try run(db: fresh, ["init", "--no-seed"]).exitCode == 0)
        return (try schemaRows(at: upgraded), try schemaRows(at: fresh))
    }
}

func schemaRows(at path: String) throws -> [Row] {
    try DatabaseQueue(path: path).read { db in
        try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
    }
}
