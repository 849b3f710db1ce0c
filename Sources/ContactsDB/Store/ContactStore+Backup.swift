import Foundation
import GRDB

extension ContactStore {
    /// Writes a consistent copy of the database to a new file at `path`
    /// through SQLite's online backup API. The copy is one snapshot, taken
    /// inside a read transaction, so other processes keep writing meanwhile
    /// (the database is in WAL mode).
    ///
    /// - throws: ``ContactsDBError/databaseUnavailable(path:reason:)`` when
    ///   `path` exists or cannot be created; nothing is overwritten.
    public func backup(to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw ContactsDBError.databaseUnavailable(path: path, reason: "a file is already there; choose a new path")
        }
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw ContactsDBError.databaseUnavailable(path: path, reason: "the file cannot be created there")
        }
        do {
            try DatabaseErrorMapping.mapping(path: path) {
                let destination = try DatabaseQueue(path: path)
                try writer.backup(to: destination)
                try destination.close()
            }
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }
}
