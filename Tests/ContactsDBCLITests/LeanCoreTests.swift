@testable import ContactsDBCLI
import ContactsDBTestSupport
import Foundation
import Testing

/// `contactsdb` carries no network stack: `remote add` and `sync` run in
/// `contactsdb-sync`, installed beside it, which every other command
/// never loads.
@Suite struct LeanCoreTests {
    let cli = CLIRunner()
    let directory = TemporaryDirectory()

    static var helper: URL { CLIRunner.binary.deletingLastPathComponent().appendingPathComponent(SyncHelper.name) }

    /// Names that only code of the network stack puts in a binary: Swift
    /// module names as mangled into its symbols and type metadata, the
    /// prefixes of the BoringSSL copies, and the libraries sync links.
    static let networkMarkers = ["7NIOCore", "15AsyncHTTPClient", "6NIOSSL", "CNIOBoringSSL_", "CCryptoBoringSSL_",
                                 "libxml2.so"]

    static func markers(in binary: URL) throws -> [String] {
        let bytes = try Data(contentsOf: binary, options: .alwaysMapped)
        return networkMarkers.filter { bytes.range(of: Data($0.utf8)) != nil }
    }

    @Test func theCommandEveryoneRunsHoldsNoNetworkStack() throws {
        #expect(try Self.markers(in: CLIRunner.binary) == [])
        // The same look finds the stack where it is.
        #expect(try Set(Self.markers(in: Self.helper)).isSuperset(of: ["7NIOCore", "15AsyncHTTPClient", "libxml2.so"]))
    }

    /// A running command maps no library of sync's (libxml2 is the one
    /// sync links dynamically; the rest is inside the helper's binary).
    @Test func aRunningCommandMapsNoLibraryOfSync() throws {
        let db = try cli.makeDatabase(in: directory)
        let watcher = try ProcessLines(CLIRunner.binary, arguments: ["--db", db, "watch"])
        defer { _ = watcher.stop(with: SIGKILL) }
        _ = try #require(watcher.next(within: 10), "watch printed no first result")
        let maps = try String(contentsOfFile: "/proc/\(watcher.processIdentifier)/maps", encoding: .utf8)
        #expect(maps.contains("/contactsdb"))
        for library in ["libxml2", "libssl", "libcrypto", "libcurl", "contactsdb-sync"] {
            #expect(!maps.contains(library), "watch maps \(library)")
        }
    }

    /// Installed anywhere as a pair, through a symbolic link too, the
    /// helper is found beside `contactsdb`; alone, `contactsdb` says what
    /// is missing and exits 69.
    @Test func theHelperIsFoundBesideTheCommandWhereverThePairIs() throws {
        let db = try cli.makeDatabase(in: directory)
        let pair = directory.path("bin")
        let links = directory.path("links")
        try FileManager.default.createDirectory(atPath: pair, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
        for binary in [CLIRunner.binary, Self.helper] {
            try FileManager.default.copyItem(atPath: binary.path, toPath: pair + "/" + binary.lastPathComponent)
        }
        try FileManager.default.createSymbolicLink(atPath: links + "/contactsdb", withDestinationPath: pair + "/contactsdb")
        for command in [pair + "/contactsdb", links + "/contactsdb"] {
            var copy = cli
            copy.binary = URL(fileURLWithPath: command)
            // The helper's answer: it opened the database and found no remote.
            let sync = try copy.run(db: db, ["sync"])
            #expect(sync.exitCode == 1, "\(command): \(sync.stderr)")
            #expect(sync.stderr.contains("has no remote"))
            #expect(try copy.run(db: db, ["query", "--count"]).stdout == "10\n")
        }

        try FileManager.default.removeItem(atPath: pair + "/" + SyncHelper.name)
        var alone = cli
        alone.binary = URL(fileURLWithPath: pair + "/contactsdb")
        let sync = try alone.run(db: db, ["sync"])
        #expect(sync.exitCode == 69)
        #expect(sync.stderr == "Error: Cannot run \(pair)/contactsdb-sync, which runs `remote add` and `sync`: No such file or directory; install it beside contactsdb.\n")
        // Every other command still works, and usage errors are found first.
        #expect(try alone.run(db: db, ["remote", "list"]).exitCode == 0)
        #expect(try alone.run(db: db, ["conflicts"]).stdout == "No conflicts.\n")
        #expect(try alone.run(db: db, ["sync", "--timeout", "0"]).exitCode == 64)
    }
}
