import Foundation
import Testing

/// The library's folders form layers, each using only those below it, and
/// SQL text lives in `Storage/` alone, so that a schema change touches
/// `Schema/` and one layer of Swift.
@Suite struct LayeringTests {
    /// Lower layers first; a file may name the types of its own layer and
    /// of the layers below it. Top-level files (the error type) are layer 0.
    static let layers: [String: Int] = [
        "Model": 0, "Support": 0,
        "Derivation": 1, "Validation": 1, "Query": 1,
        "Storage": 2,
        "Interchange": 3,
        "Import": 4,
        "Store": 5,
    ]

    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    struct SourceFile {
        var path: String
        /// The folder under `Sources/ContactsDB/`, or nil for other targets.
        var folder: String?
        /// The code with comments and string interpolations' text kept.
        var code: [String]
    }

    static func files() throws -> [SourceFile] {
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        var files: [SourceFile] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let relative = String(url.path.dropFirst(sources.path.count + 1))
            let parts = relative.split(separator: "/").map(String.init)
            let folder = parts.first == "ContactsDB" ? (parts.count > 2 ? parts[1] : "") : nil
            let code = try String(contentsOf: url, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
                .map(String.init)
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            files.append(SourceFile(path: relative, folder: folder, code: code))
        }
        return files.sorted { $0.path < $1.path }
    }

    nonisolated(unsafe) static let sqlPattern = try! Regex(
        #"\b(SELECT|INSERT (INTO|OR)|UPDATE \w+ SET|DELETE FROM|(CREATE|DROP) (TABLE|INDEX|TRIGGER|VIEW|VIRTUAL)|ALTER TABLE|PRAGMA|BEGIN (DEFERRED|IMMEDIATE|EXCLUSIVE|TRANSACTION)|COMMIT|ROLLBACK|EXPLAIN|VACUUM|ATTACH)\b"#)

    @Test func sqlTextLivesInStorageAlone() throws {
        var offenders: [String] = []
        // Besides Storage, only the benchmark's raw twin of the engine's
        // queries, which is SQL written by hand on purpose.
        for file in try Self.files() where file.folder != "Storage" && !file.path.hasPrefix("ContactsDBBench/BenchmarkSQL") {
            for (number, line) in file.code.enumerated() where line.contains(Self.sqlPattern) {
                offenders.append("\(file.path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "SQL outside Sources/ContactsDB/Storage:\n\(offenders.joined(separator: "\n"))")
    }

    /// The raw C and C++ APIs the benchmark's twins are written on are
    /// reached by ContactsDBBench alone among the command's targets; the
    /// commands go through the library.
    @Test func onlyTheBenchmarkReachesTheRawAPIs() throws {
        let raw = try Regex(#"^import (GRDBSQLite|CPhoneNumber|CICU)\b"#)
        let offenders = try Self.files()
            .filter { $0.path.hasPrefix("ContactsDBCLI/") || $0.path.hasPrefix("contactsdb/") }
            .filter { $0.code.contains { $0.contains(raw) } }
            .map(\.path)
        #expect(offenders.isEmpty, "raw C APIs imported by the command's targets: \(offenders)")
    }

    /// The core links no network stack: only ContactsDBSync (and the
    /// `contactsdb-sync` helper) imports it, and the web server
    /// (ContactsDBServer, which `contactsdb-serve` alone links) besides.
    @Test func onlySyncImportsTheNetworkStack() throws {
        let network = try Regex(#"^import (AsyncHTTPClient|NIO\w*|Crypto|_?CryptoExtras|CLibXML2|Hummingbird\w*)\b"#)
        let server = try Regex(#"^import (Hummingbird\w*|ContactsDBServer)\b"#)
        let files = try Self.files()
        let offenders = files
            .filter { !$0.path.hasPrefix("ContactsDBSync/") && !$0.path.hasPrefix("contactsdb-sync/") }
            .filter { !$0.path.hasPrefix("ContactsDBServer/") && !$0.path.hasPrefix("contactsdb-serve/") }
            .filter { $0.code.contains { $0.contains(network) } }
            .map(\.path)
        #expect(offenders.isEmpty, "imports of the network stack outside ContactsDBSync: \(offenders)")
        let serving = files
            .filter { !$0.path.hasPrefix("ContactsDBServer/") && !$0.path.hasPrefix("contactsdb-serve/") }
            .filter { $0.code.contains { $0.contains(server) } }
            .map(\.path)
        #expect(serving.isEmpty, "imports of the web server outside ContactsDBServer: \(serving)")
    }

    @Test func everyFolderHasALayer() throws {
        let folders = Set(try Self.files().compactMap(\.folder)).subtracting([""])
        #expect(folders.subtracting(Self.layers.keys).isEmpty)
    }

    nonisolated(unsafe) static let declaration = try! Regex(
        #"^(?:(?:public|internal|package|final|indirect)\s+)*(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)"#)
    // Simple word boundaries: by Unicode's, `GroupWriter.key` is one word,
    // and a name followed by a dot would never be seen.
    nonisolated(unsafe) static let typeName = try! Regex(#"\b[A-Z]\w*\b"#).wordBoundaryKind(.simple)

    @Test func foldersUseOnlyTheLayersBelowThem() throws {
        let library = try Self.files().filter { $0.folder != nil }
        func layer(_ file: SourceFile) -> Int { Self.layers[file.folder ?? ""] ?? 0 }
        // Top-level declarations only: nested names are reached through them.
        var home: [String: SourceFile] = [:]
        for file in library {
            for line in file.code {
                if let match = line.firstMatch(of: Self.declaration), let name = match.output[1].substring {
                    home[String(name)] = file
                }
            }
        }
        var offenders: [String] = []
        for file in library {
            for (number, line) in file.code.enumerated() {
                for match in line.matches(of: Self.typeName) {
                    guard let owner = home[String(line[match.range])], layer(owner) > layer(file) else { continue }
                    offenders.append("\(file.path):\(number + 1) names \(line[match.range]) of \(owner.folder ?? "")/")
                }
            }
        }
        #expect(offenders.isEmpty, "uses against the layers:\n\(offenders.joined(separator: "\n"))")
    }
}
