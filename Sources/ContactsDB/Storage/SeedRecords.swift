import Foundation
import GRDB

/// The seeds imported into a database, in `seedImport`: the record that
/// makes a seed a one-time import.
enum SeedRecords {
    static func record(_ seed: SeedImport, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO seedImport (checksum, source, contactCount, importedAt) VALUES (?, ?, ?, ?)",
            arguments: [seed.checksum, seed.source, seed.contactCount, Timestamp.string(from: seed.importedAt)])
    }

    /// Every seed imported, oldest first.
    static func all(_ db: Database) throws -> [SeedImport] {
        try Row.fetchAll(db, sql: "SELECT checksum, source, contactCount, importedAt FROM seedImport ORDER BY importedAt")
            .map { row in
                SeedImport(
                    checksum: row[0], source: row[1], contactCount: row[2],
                    importedAt: Timestamp.date(from: row[3]) ?? Date(timeIntervalSince1970: 0))
            }
    }
}
