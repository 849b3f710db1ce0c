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
        try DatabaseBackup.copy(writer, to: path)
    }
}

/// Online backups, and the ones kept beside a database before migrating it.
enum DatabaseBackup {
    /// How many pre-migration backups are kept beside a database.
    static let keptBeforeMigration = 3

    /// Copies `source` into the new file at `path`; removes it on failure.
    static func copy(_ source: some DatabaseReader, to path: String) throws {
        do {
            try DatabaseErrorMapping.mapping(path: path) {
                let destination = try DatabaseQueue(path: path)
                try source.backup(to: destination)
                try destination.close()
            }
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
    }

    /// Backs up a database that holds contacts before `migration` changes
    /// it, as `NAME.before-MIGRATION-TIMESTAMP.sqlite` beside it, keeping
    /// the newest few. Returns the backup's path, or nil when there was
    /// nothing to keep.
    static func beforeMigration(_ queue: DatabaseQueue, at path: String, migration: String) throws -> String? {
        let holdsContacts = try queue.read { db in
            try ContactReader.holdsContacts(db)
        }
        guard holdsContacts else { return nil }
        let stamp = Timestamp.string(from: Date()).filter { $0.isNumber || $0 == "T" }
        let backup = "\(path).before-\(migration)-\(stamp).sqlite"
        guard FileManager.default.createFile(atPath: backup, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw ContactsDBError.databaseUnavailable(path: backup, reason: "the backup taken before migrating cannot be created there")
        }
        try copy(queue, to: backup)
        try prune(beside: path)
        return backup
    }

    private static func prune(beside path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let prefix = (path as NSString).lastPathComponent + ".before-"
        let backups = try FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".sqlite") }
            .sorted { $0.suffix(25) < $1.suffix(25) }  // by timestamp
        for old in backups.dropLast(keptBeforeMigration) {
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(old))
        }
    }
}
