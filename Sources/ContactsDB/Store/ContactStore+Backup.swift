import Foundation
import GRDB

extension ContactStore {
    /// Writes a consistent copy of the database to a new file at `path`
    /// through SQLite's online backup API. The copy is one snapshot, taken
    /// inside a read transaction, so other processes keep writing meanwhile
    /// (the database is in WAL mode). It is written beside `path` first and
    /// appears there only once complete, so a killed backup leaves no file
    /// that a later open would take for a database.
    ///
    /// - throws: ``ContactsDBError/unwritableFile(path:reason:)`` when
    ///   `path` exists or cannot be written; nothing is overwritten.
    public func backup(to path: String) throws {
        var status = stat()
        guard lstat(path, &status) != 0 else {
            throw ContactsDBError.unwritableFile(path: path, reason: "a file is already there; choose a new path")
        }
        try DatabaseBackup.copy(writer, to: path)
    }
}

/// Online backups, and the ones kept beside a database before migrating it.
enum DatabaseBackup {
    /// How many pre-migration backups are kept beside a database.
    static let keptBeforeMigration = 3

    /// Copies `source` into a new file at `path`, through a temporary
    /// sibling; an existing file at `path` is never replaced.
    static func copy(_ source: some DatabaseReader, to path: String) throws {
        let file = try AtomicFile(path: path)
        try DatabaseErrorMapping.mapping(path: path) {
            let destination = try DatabaseQueue(path: file.temporaryPath)
            try source.backup(to: destination)
            try destination.close()
        }
        try file.commit(replacingExisting: false)
    }

    /// Backs up a database that holds contacts before `migration` changes
    /// it, as `NAME.before-MIGRATION-TIMESTAMP.sqlite` beside it, keeping
    /// the newest few. Returns the backup's path, or nil when there was
    /// nothing to keep.
    static func beforeMigration(_ queue: DatabaseQueue, at path: String, migration: String) throws -> String? {
        let holdsContacts = try queue.read { db in
            try db.tableExists("contact") && (try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM contact)") ?? false)
        }
        guard holdsContacts else { return nil }
        let stamp = Timestamp.string(from: Date()).filter { $0.isNumber || $0 == "T" }
        let backup = "\(path).before-\(migration)-\(stamp).sqlite"
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
