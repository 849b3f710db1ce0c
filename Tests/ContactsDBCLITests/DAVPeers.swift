import ContactsDBTestSupport
import Foundation
import Testing

/// Real CardDAV servers and a second client for the sync tests, from the
/// Python that `.ci/run` installs them into (`.build-python`): Radicale,
/// which checks passwords, Xandikos, Debian's Cyrus IMAP, and DAViCal on
/// PostgreSQL (Debian's `davical`, which rewrites the cards it is given),
/// each started by `Tests/Sync/davserver.py` on 127.0.0.1 on a free port
/// and stopped by its pid; vdirsyncer as a second device.
enum DAVPeers {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let python = root.appendingPathComponent(".build-python/bin/python3").path

    /// Whether the peers are installed. Where they are not, the sync tests
    /// do not run, unless CONTACTSDB_REQUIRE_DAV is set (as `.ci/run`
    /// sets it), where they fail.
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: python)
            || ProcessInfo.processInfo.environment["CONTACTSDB_REQUIRE_DAV"] != nil
    }

    /// Runs a program to its end; its output as text.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    expecting status: Int32? = 0) throws -> String {
        let result = try runToEnd(executable, arguments, environment: environment)
        if let status, result.status != status {
            Issue.record("\(executable) \(arguments.joined(separator: " ")) exited \(result.status):\n\(result.output)")
        }
        return result.output
    }

    /// Runs a program to its end, in `directory` if given: its exit status
    /// and its output (stdout and stderr) as text.
    static func runToEnd(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                         in directory: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// One server with one empty address book, stopped when released.
final class DAVServer {
    enum Kind: String {
        case radicale, xandikos, cyrus, davical

        /// Whether the server is here: Cyrus and DAViCal are Debian's.
        var isInstalled: Bool {
            switch self {
            case .radicale, .xandikos: true
            case .cyrus: FileManager.default.isExecutableFile(atPath: "/usr/lib/cyrus/bin/master")
            case .davical: FileManager.default.fileExists(atPath: "/usr/share/davical/htdocs")
            }
        }
    }

    /// Those of `kinds` installed here; where one is missing its tests do
    /// not run, unless CONTACTSDB_REQUIRE_DAV is set.
    static func installed(_ kinds: [Kind]) -> [Kind] {
        let required = ProcessInfo.processInfo.environment["CONTACTSDB_REQUIRE_DAV"] != nil
        return kinds.filter { required || $0.isInstalled }
    }

    let kind: Kind
    let folder: String
    let pid: Int32
    let root: String
    let addressBook: String
    static let user = "alice"
    static let password = "correct horse battery"
    /// The environment `credentials` name the password in.
    static let passwordEnvironment = ["DAV_PASSWORD": password]

    /// `remote add`'s options for the server's credentials (Xandikos takes
    /// none).
    var credentials: [String] {
        kind == .xandikos ? [] : ["--username", Self.user, "--password-env", "DAV_PASSWORD"]
    }

    init(_ kind: Kind, in directory: TemporaryDirectory) throws {
        self.kind = kind
        folder = directory.path(kind.rawValue)
        let output = try DAVPeers.run(DAVPeers.python, [
            DAVPeers.root.appendingPathComponent("Tests/Sync/davserver.py").path, "start", kind.rawValue, folder,
            "--user", Self.user, "--password", Self.password,
        ])
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let pid = object["pid"] as? Int, let root = object["root"] as? String,
              let addressBook = object["addressbook"] as? String
        else { throw ServerError(output: output) }
        self.pid = Int32(pid)
        self.root = root
        self.addressBook = addressBook
    }

    struct ServerError: Error, CustomStringConvertible {
        var output: String
        var description: String { "the server did not start: \(output)" }
    }

    /// Makes another address book, `name`, beside the first in the
    /// principal's home.
    func makeAddressBook(_ name: String) throws -> String {
        let first = addressBook.dropLast()
        let url = String(first[...first.lastIndex(of: "/")!]) + name.lowercased() + "/"
        try DAVPeers.run(DAVPeers.python, [
            DAVPeers.root.appendingPathComponent("Tests/Sync/davserver.py").path, "mkcol", url, Self.user, Self.password, name])
        return url
    }

    /// Moves a card to another href, as a server that renames cards does.
    func move(_ source: String, to target: String) throws {
        try DAVPeers.run(DAVPeers.python, [
            DAVPeers.root.appendingPathComponent("Tests/Sync/davserver.py").path, "move", source, target, Self.user, Self.password])
    }

    /// The runner with the password `credentials` names.
    func client(_ runner: CLIRunner) -> CLIRunner {
        var runner = runner
        runner.environment["DAV_PASSWORD"] = Self.password
        return runner
    }

    /// Makes DAViCal forget every sync-token it gave, as it does of those
    /// older than a week.
    func forgetSyncTokens() throws {
        try DAVPeers.run(DAVPeers.python, [
            DAVPeers.root.appendingPathComponent("Tests/Sync/davserver.py").path, "forget-tokens", folder])
    }

    func stop() {
        _ = try? DAVPeers.run(DAVPeers.python, [
            DAVPeers.root.appendingPathComponent("Tests/Sync/davserver.py").path, "stop", String(pid)])
    }

    deinit { stop() }

    /// The PUT and DELETE requests the server logged so far (Cyrus logs
    /// to syslog only: none).
    var writes: Int { requests("PUT") + requests("DELETE") }

    /// The requests of this method the server logged so far.
    func requests(_ method: String) -> Int {
        let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0.contains("\"\(method) ") || $0.contains("] \(method) request") }.count
    }
}

/// vdirsyncer syncing the server's address book with a folder of .vcf
/// files: another device editing the same collection.
struct Vdirsyncer {
    let config: String
    let folder: String

    init(server: DAVServer, in directory: TemporaryDirectory) throws {
        let output = try DAVPeers.run(DAVPeers.python, [
            DAVPeers.root.appendingPathComponent("Tests/Sync/davserver.py").path, "vdirsyncer", server.addressBook,
            DAVServer.user, DAVServer.password, directory.path("vdirsyncer")])
        config = output.trimmingCharacters(in: .whitespacesAndNewlines)
        folder = directory.path("vdirsyncer/cards")
        try run(["discover"])
    }

    func sync() throws { try run(["sync"]) }

    private func run(_ arguments: [String]) throws {
        let executable = (DAVPeers.python as NSString).deletingLastPathComponent + "/vdirsyncer"
        try DAVPeers.run(executable, ["-c", config] + arguments)
    }

    /// The cards in the folder, by file name.
    func cards() throws -> [String: String] {
        var cards: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".vcf") {
            cards[name] = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
        }
        return cards
    }

    func write(_ name: String, _ card: String) throws {
        try Data(card.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
    }

    func remove(_ name: String) throws {
        try FileManager.default.removeItem(atPath: folder + "/" + name)
    }
}
