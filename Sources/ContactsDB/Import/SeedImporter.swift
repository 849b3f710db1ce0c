import Foundation
import GRDB

/// Reports import progress: bytes read so far, and the total.
public typealias ImportProgress = (_ bytesRead: Int, _ totalBytes: Int) -> Void

/// The default seed compiled into this build.
public enum BundledSeed {
    /// The source recorded for it in `seedImport`.
    public static let source = "bundled"
    /// The seed's JSON; an empty list where the build has none.
    public static let data: Data = EmbeddedResources.seeds
        .first { $0.name.hasSuffix(".json") }
        .map { Data($0.text.utf8) } ?? Data("[]".utf8)
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
    init(_ file: MappedFile, source: String) {
        self.init(bytes: file.bytes, source: source, release: file.release)
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

/// Seeding and importing through the one import pipeline.
enum SeedImporter {
    /// Imports the bundled seed if this database was never seeded and did
    /// not decline it; checked and done in one write transaction, so two
    /// processes opening a new database import it once.
    static func seedIfFirstOpen(_ db: Database) throws -> SeedImport? {
        guard try isUnsettled(db) else { return nil }
        let outcome = try seed(.data(BundledSeed.data, source: BundledSeed.source), book: nil, progress: nil, db)
        guard case let .imported(record) = outcome else { return nil }
        return record
    }

    /// True for a database never seeded whose bundled seed was not declined.
    static func isUnsettled(_ db: Database) throws -> Bool {
        try SeedRecords.all(db).isEmpty && Settings.value(Settings.bundledSeedDeclinedKey, db) == nil
    }

    /// Imports `input` into `book` (nil: the default book) unless a seed of
    /// the same bytes was imported before.
    static func seed(_ input: ImportInput, book: BookID?, progress: ImportProgress?, _ db: Database) throws -> SeedOutcome {
        let checksum = try input.withBytes { Checksum.sha256(UnsafeRawBufferPointer($0.bytes)) }
        if let earlier = try SeedRecords.all(db).first(where: { $0.checksum == checksum }) {
            return .alreadyImported(earlier)
        }
        let count = try ImportPipeline(inputs: [input], book: book, progress: progress).run(db).imported
        let now = Timestamp.string(from: Date())
        let record = SeedImport(
            checksum: checksum, source: input.source, contactCount: count, importedAt: Timestamp.date(from: now) ?? Date())
        try SeedRecords.record(record, db)
        return .imported(record)
    }
}
