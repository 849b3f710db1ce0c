@testable import ContactsDBCLI
import ContactsDBBench
import ContactsDBTestSupport
import Foundation
import Testing

/// `contactsdb` carries no network stack: `remote add` and `sync` run in
/// `contactsdb-sync`, and `serve` in `contactsdb-serve`, installed beside
/// it, which every other command never loads.
@Suite struct LeanCoreTests {
    let cli = CLIRunner()
    let directory = TemporaryDirectory()

    static var helper: URL { CLIRunner.binary.deletingLastPathComponent().appendingPathComponent(Helper.sync.name) }
    static var serveHelper: URL { CLIRunner.binary.deletingLastPathComponent().appendingPathComponent(Helper.serve.name) }

    /// Names that only code of the network stack puts in a binary: Swift
    /// module names as mangled into its symbols and type metadata, the
    /// prefixes of the BoringSSL copies, and the libraries sync links.
    static let networkMarkers = ["7NIOCore", "15AsyncHTTPClient", "6NIOSSL", "CNIOBoringSSL_", "CCryptoBoringSSL_",
                                 "libxml2.so", "11Hummingbird"]

    static func markers(in binary: URL) throws -> [String] {
        let bytes = try Data(contentsOf: binary, options: .alwaysMapped)
        return networkMarkers.filter { bytes.range(of: Data($0.utf8)) != nil }
    }

    @Test func theCommandEveryoneRunsHoldsNoNetworkStack() throws {
        #expect(try Self.markers(in: CLIRunner.binary) == [])
        // The same look finds the stack where it is.
        #expect(try Set(Self.markers(in: Self.helper)).isSuperset(of: ["7NIOCore", "15AsyncHTTPClient", "libxml2.so"]))
        #expect(try !Self.markers(in: Self.helper).contains("11Hummingbird"), "sync carries no web server")
        #expect(try Set(Self.markers(in: Self.serveHelper)).isSuperset(of: ["7NIOCore", "11Hummingbird"]))
    }

    /// A running command maps no library of sync's (libxml2 is the one
    /// sync links dynamically; the rest is inside the helper's binary).
    @Test func aRunningCommandMapsNoLibraryOfSync() throws {
        let maps = try mapsOfRunningCommand(on: try cli.makeDatabase(in: directory))
        #expect(maps.contains("/contactsdb"))
        for library in ["libxml2", "libssl", "libcrypto", "libcurl", "contactsdb-sync", "contactsdb-serve"] {
            #expect(!maps.contains(library), "watch maps \(library)")
        }
    }

    /// libphonenumber, and protobuf and Abseil under it, are inside the
    /// binary: as shared libraries they made every process's start bind
    /// some 2,700 symbols, most of a `query`'s time before any work.
    @Test func aRunningCommandMapsNoSharedLibraryOfPhoneNumbers() throws {
        let db = try cli.makeDatabase(in: directory)
        let maps = try mapsOfRunningCommand(on: db)
        #expect(maps.contains("libicuuc"), "the look finds a shared library where one is")
        for library in ["libphonenumber", "libprotobuf", "libabsl"] {
            #expect(!maps.contains(library), "watch maps \(library)")
        }
        // And numbers are still read and shown through it.
        let added = try cli.run(db: db, ["add", "--first-name", "Ira", "--phone", "+7 912 345 67 89"])
        #expect(added.exitCode == 0, "\(added.stderr)")
        #expect(try cli.run(db: db, ["query", "--name", "Ira"]).stdout.contains("345-67-89"), "formatted by libphonenumber")
    }

    /// The memory map of a `watch` on `db`, once it has shown its first result.
    private func mapsOfRunningCommand(on db: String) throws -> String {
        let watcher = try ProcessLines(CLIRunner.binary, arguments: ["--db", db, "watch"])
        defer { _ = watcher.stop(with: SIGKILL) }
        _ = try #require(watcher.next(within: 10), "watch printed no first result")
        return try String(contentsOfFile: "/proc/\(watcher.processIdentifier)/maps", encoding: .utf8)
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
        for binary in [CLIRunner.binary, Self.helper, Self.serveHelper] {
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

        // `serve` is handed over the same way: only its helper can say
        // that the port is taken.
        let listener = try TakenPort()
        var copy = cli
        copy.binary = URL(fileURLWithPath: links + "/contactsdb")
        let taken = try copy.run(db: db, ["serve", "--port", "\(listener.port)"])
        #expect(taken.exitCode == 69, "\(taken.stderr)")
        #expect(taken.stderr == "Error: Cannot serve on 127.0.0.1:\(listener.port): Address already in use; choose another --port.\n")

        try FileManager.default.removeItem(atPath: pair + "/" + Helper.sync.name)
        try FileManager.default.removeItem(atPath: pair + "/" + Helper.serve.name)
        var alone = cli
        alone.binary = URL(fileURLWithPath: pair + "/contactsdb")
        let sync = try alone.run(db: db, ["sync"])
        #expect(sync.exitCode == 69)
        #expect(sync.stderr == "Error: Cannot run \(pair)/contactsdb-sync, which runs `remote add` and `sync`: No such file or directory; install it beside contactsdb.\n")
        let serve = try alone.run(db: db, ["serve"])
        #expect(serve.exitCode == 69)
        #expect(serve.stderr == "Error: Cannot run \(pair)/contactsdb-serve, which runs `serve`: No such file or directory; install it beside contactsdb.\n")
        #expect(try alone.run(db: db, ["serve", "--port", "0"]).exitCode == 64)
        // Every other command still works, and usage errors are found first.
        #expect(try alone.run(db: db, ["remote", "list"]).exitCode == 0)
        #expect(try alone.run(db: db, ["conflicts"]).stdout == "No conflicts.\n")
        #expect(try alone.run(db: db, ["sync", "--timeout", "0"]).exitCode == 64)
    }
}

/// A port on 127.0.0.1 that a listening socket of this process holds.
final class TakenPort {
    let socket: Int32
    let port: Int

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && listen(socket, 1) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }
}
