import Foundation
import GRDB

/// A seed file imported into a database, as recorded in `seedImport`.
public struct SeedImport: Hashable, Sendable {
    /// SHA-256 of the file's bytes: the seed's identity.
    public var checksum: String
    /// Where it came from: `bundled` or the file name given.
    public var source: String
    public var contactCount: Int
    public var importedAt: Date
}

/// What ``ContactStore/seed(_:source:progress:)`` did.
public enum SeedOutcome: Hashable, Sendable {
    case imported(SeedImport)
    /// This seed (same checksum) was imported before; nothing was written.
    case alreadyImported(SeedImport)
}

/// Reports import progress: bytes read so far, and the total.
public typealias ImportProgress = (_ bytesRead: Int, _ totalBytes: Int) -> Void

/// The default seed compiled into this build.
public enum BundledSeed {
    public static let source = "bundled"
    public static let data: Data = EmbeddedResources.seeds
        .first { $0.name.hasSuffix(".json") }
        .flatMap { Data(base64Encoded: $0.base64) } ?? Data("[]".utf8)
}

extension ContactStore {
    // MARK: - Importing

    /// Adds every contact of a JSON file (SPEC's format), all or nothing, in
    /// one transaction. Not recorded as a seed: importing twice adds twice
    /// (and fails on ids given twice).
    ///
    /// - returns: how many contacts were added.
    /// - throws: `.malformedJSON` with line and column, `.invalidContact`
    ///   naming the record and field (`contacts[3].phones[0].value`), or
    ///   `.duplicateContactID`; nothing is written.
    @discardableResult
    public func importContacts(_ data: Data, source: String, progress: ImportProgress? = nil) throws -> Int {
        try ContactsInput.with(data, source: source) { input in
            try write { db in try SeedImporter.insertAll(input, progress: progress, db) }
        }
    }

    /// ``importContacts(_:source:progress:)`` from a file, read through a
    /// memory map whose pages are released as the import moves on, so that
    /// a file of any size imports in bounded memory.
    @discardableResult
    public func importContacts(fromFileAt path: String, progress: ImportProgress? = nil) throws -> Int {
        let file = try MappedFile(path: path)
        return try write { db in try SeedImporter.insertAll(ContactsInput(file, path: path), progress: progress, db) }
    }

    // MARK: - Seeding

    /// Imports a seed once per database: a second call with the same bytes
    /// reports the first import and writes nothing.
    public func seed(_ data: Data, source: String, progress: ImportProgress? = nil) throws -> SeedOutcome {
        try ContactsInput.with(data, source: source) { input in
            try write { db in try SeedImporter.seed(input, progress: progress, db) }
        }
    }

    /// ``seed(_:source:progress:)`` from a file, in bounded memory.
    public func seed(fromFileAt path: String, progress: ImportProgress? = nil) throws -> SeedOutcome {
        let file = try MappedFile(path: path)
        return try write { db in try SeedImporter.seed(ContactsInput(file, path: path), progress: progress, db) }
    }

    /// Records that this database declines the bundled seed: no open will
    /// import it, though ``seed(_:source:progress:)`` still can.
    public func declineBundledSeed() throws {
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)",
                arguments: [SeedImporter.declinedKey, Timestamp.string(from: Date())])
        }
    }

    /// Every seed imported into this database, oldest first.
    public func seedImports() throws -> [SeedImport] {
        try read { db in try SeedImporter.imports(db) }
    }

    /// When the bundled seed was declined, if it was.
    public func bundledSeedDeclinedAt() throws -> Date? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [SeedImporter.declinedKey])
                .flatMap(Timestamp.date(from:))
        }
    }
}

/// The bytes of a contacts file being imported, and how to hand back the
/// pages already read (for memory-mapped files).
///
/// Only the reading thread of ``ImportPipeline`` reads the bytes or calls
/// `release`; the pipeline waits for that thread before it returns.
struct ContactsInput: @unchecked Sendable {
    var bytes: UnsafeBufferPointer<UInt8>
    var source: String
    var release: ((Int) -> Void)?

    /// A mapped file, named by its last path component in errors.
    init(_ file: MappedFile, path: String) {
        self.init(bytes: file.bytes, source: (path as NSString).lastPathComponent, release: file.release)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, source: String, release: ((Int) -> Void)?) {
        self.bytes = bytes
        self.source = source
        self.release = release
    }

    /// Runs `body` with the bytes of `data`, which has no pages to hand back.
    static func with<T>(_ data: Data, source: String, _ body: (ContactsInput) throws -> T) rethrows -> T {
        try data.withUnsafeBytes { raw in
            try body(ContactsInput(bytes: raw.bindMemory(to: UInt8.self), source: source, release: nil))
        }
    }
}

/// The SQL side of seeding and importing.
enum SeedImporter {
    static let declinedKey = "bundledSeedDeclinedAt"

    /// Imports the bundled seed if this database was never seeded and did
    /// not decline it; checked and done in one write transaction, so two
    /// processes opening a new database import it once.
    static func seedIfFirstOpen(_ db: Database) throws -> SeedImport? {
        guard try isUnsettled(db) else { return nil }
        let outcome = try ContactsInput.with(BundledSeed.data, source: BundledSeed.source) { input in
            try seed(input, progress: nil, db)
        }
        guard case let .imported(record) = outcome else { return nil }
        return record
    }

    /// True for a database never seeded whose bundled seed was not declined.
    static func isUnsettled(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT NOT EXISTS (SELECT 1 FROM seedImport) AND NOT EXISTS (SELECT 1 FROM setting WHERE key = ?)
            """, arguments: [declinedKey]) ?? false
    }

    static func seed(_ input: ContactsInput, progress: ImportProgress?, _ db: Database) throws -> SeedOutcome {
        let checksum = Checksum.sha256(UnsafeRawBufferPointer(input.bytes))
        if let earlier = try imports(db).first(where: { $0.checksum == checksum }) {
            return .alreadyImported(earlier)
        }
        let source = input.source
        let count = try insertAll(input, progress: progress, db)
        let now = Timestamp.string(from: Date())
        let record = SeedImport(checksum: checksum, source: source, contactCount: count, importedAt: Timestamp.date(from: now)!)
        try db.execute(
            sql: "INSERT INTO seedImport (checksum, source, contactCount, importedAt) VALUES (?, ?, ?, ?)",
            arguments: [checksum, source, count, now])
        return .imported(record)
    }

    static func insertAll(
        _ input: ContactsInput, progress: ImportProgress?,
        deferringIndexesAfter minimum: Int = DeferredIndexes.minimumContacts, _ db: Database
    ) throws -> Int {
        let now = Timestamp.string(from: Date())
        let writer = try ContactWriter(db)
        var indexes = try DeferredIndexes(db, minimumContacts: minimum)
        var count = 0
        try ImportPipeline.run(input) { contact in
            _ = try writer.insert(contact.draft, contact.derived, at: contact.path, now: now)
            count += 1
            try indexes.didInsert(count, db)
            progress?(contact.bytesRead, input.bytes.count)
        }
        try indexes.finish(db)
        progress?(input.bytes.count, input.bytes.count)
        return count
    }

    /// The seed records; one whose values have other types (edited by
    /// hand) is an error, never a trap.
    static func imports(_ db: Database) throws -> [SeedImport] {
        try Row.fetchAll(db, sql: "SELECT checksum, source, contactCount, importedAt FROM seedImport ORDER BY importedAt")
            .map { row in
                do {
                    return SeedImport(
                        checksum: try row.decode(atIndex: 0), source: try row.decode(atIndex: 1),
                        contactCount: try row.decode(atIndex: 2),
                        importedAt: Timestamp.date(from: try row.decode(atIndex: 3)) ?? Date(timeIntervalSince1970: 0))
                } catch is RowDecodingError {
                    throw ContactsDBError.databaseFailure(
                        reason: "a record of the seedImport table holds values of the wrong type; restore the database from a backup")
                }
            }
    }
}
