import Crypto
import Foundation

/// One migration: a file of `Schema/`, identified by its file stem
/// (`0001_initial`), run as plain SQL in its own transaction.
public struct SchemaMigration: Hashable, Sendable {
    public let identifier: String
    public let sql: String
    /// SHA-256 of the file's bytes, recorded when the migration is applied
    /// so that a shipped file edited later is detected.
    public let checksum: String

    public init(identifier: String, sql: String) {
        self.identifier = identifier
        self.sql = sql
        checksum = Checksum.sha256(Data(sql.utf8))
    }

    /// The migrations compiled into this build, in file-name order.
    public static let bundled: [SchemaMigration] = EmbeddedResources.schema
        .filter { $0.name.hasSuffix(".sql") }
        .map { file in
            SchemaMigration(
                identifier: String(file.name.dropLast(".sql".count)),
                sql: String(decoding: Data(base64Encoded: file.base64)!, as: UTF8.self))
        }
}

enum Checksum {
    /// Lower-case hex. Every process checksums the bundled migrations, so
    /// the digits are written directly rather than by String(format:).
    static func sha256(_ bytes: some DataProtocol) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
