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

    /// Every seed imported, oldest first; a record whose values have other
    /// types (edited by hand) is an error, never a trap.
    static func all(_ db: Database) throws -> [SeedImport] {
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
