import Foundation

/// One migration: a file of `Schema/`, identified by its file stem
/// (`0001_initial`), run as plain SQL in its own transaction.
public struct SchemaMigration: Hashable, Sendable {
    /// The file stem, which is also the migration's id.
    public let identifier: String
    /// The file's SQL, run as it is.
    public let sql: String
    /// SHA-256 of the file's bytes, recorded when the migration is applied
    /// so that a shipped file edited later is detected.
    public let checksum: String

    /// A migration from its file stem and SQL, checksummed here.
    public init(identifier: String, sql: String) {
        self.init(identifier: identifier, sql: sql, checksum: Checksum.sha256(sql.utf8))
    }

    private init(identifier: String, sql: String, checksum: String) {
        self.identifier = identifier
        self.sql = sql
        self.checksum = checksum
    }

    /// The migrations compiled into this build, in file-name order, with
    /// the checksums computed when they were compiled in.
    public static let bundled: [SchemaMigration] = EmbeddedResources.schema
        .filter { $0.name.hasSuffix(".sql") }
        .map { file in
            SchemaMigration(identifier: String(file.name.dropLast(".sql".count)), sql: file.text, checksum: file.sha256)
        }
}
