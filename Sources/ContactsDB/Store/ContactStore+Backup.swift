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
    /// sibling; an existing file at `path` is replaced only when it is a
    /// name this process reserved.
    static func copy(_ source: some DatabaseReader, to path: String, replacingReservedName: Bool = false) throws {
        let file = try AtomicFile(path: path)
        try DatabaseErrorMapping.mapping(path: path) {
            let destination = try DatabaseQueue(path: file.temporaryPath)
            try source.backup(to: destination)
            try destination.close()
        }
        try file.commit(replacingExisting: replacingReservedName)
    }

    /// Backs up a database that holds contacts before `migration` changes
    /// it, as `NAME.before-MIGRATION-TIMESTAMP.sqlite` beside it, keeping
    /// the newest few. Returns the backup's path, or nil when there was
    /// nothing to keep.
    ///
    /// Called only under ``DatabaseFile/Lock``, so no other process makes or
    /// prunes backups of this database meanwhile. The name is still taken
    /// with `O_EXCL` (a process of an earlier build, or a clock that stepped
    /// back, may have used it), and the copy is written to a side file and
    /// renamed over the reserved name (``AtomicFile``), so a backup is never
    /// half-written.
    static func beforeMigration(_ queue: DatabaseQueue, at path: String, migration: String) throws -> String? {
        let holdsContacts = try queue.read { db in
            try ContactReader.holdsContacts(db)
        }
        guard holdsContacts else { return nil }
        let stamp = Timestamp.string(from: Date()).filter { $0.isNumber || $0 == "T" }
        let backup = try reserveName("\(path).before-\(migration)-\(stamp)")
        do {
            try copy(queue, to: backup, replacingReservedName: true)
        } catch {
            unlink(backup)
            throw error
        }
        prune(beside: path, keeping: backup)
        return backup
    }

    /// The backup of the version the database has before `pending` are
    /// applied (``beforeMigration(_:at:migration:)``), recorded in the
    /// database until ``upgradeEnded(_:)``; or, for an upgrade that was
    /// killed and is resumed, the one it took then, kept: a backup of the
    /// half-upgraded file would rotate out the one worth having.
    static func beforeUpgrade(_ queue: DatabaseQueue, at path: String, pending: [String]) throws -> String? {
        guard let first = pending.first, let last = pending.last else { return nil }
        let recorded = try queue.read { db in try Settings.valueBeforeMigrating(Settings.upgradeBackupKey, db) }?
            .split(separator: "\u{1F}").map(String.init)
        if let recorded, recorded.count == 2, pending.contains(recorded[1]), FileManager.default.fileExists(atPath: recorded[0]) {
            return recorded[0]
        }
        guard let backup = try beforeMigration(queue, at: path, migration: first) else { return nil }
        try queue.write { db in try Settings.set(Settings.upgradeBackupKey, to: backup + "\u{1F}" + last, db) }
        return backup
    }

    /// Forgets the upgrade's backup (the file stays): the upgrade ended.
    static func upgradeEnded(_ db: Database) throws {
        try Settings.remove(Settings.upgradeBackupKey, db)
    }

    // MARK: - Non public

    /// Creates the first free one of `BASE.sqlite`, `BASE-PID.sqlite`,
    /// `BASE-PID-2.sqlite`, … empty and exclusively, and returns its path.
    private static func reserveName(_ base: String) throws -> String {
        let pid = getpid()
        for attempt in 0..<100 {
            let candidate = base + (attempt == 0 ? "" : attempt == 1 ? "-\(pid)" : "-\(pid)-\(attempt)") + ".sqlite"
            let failure = createExclusively(candidate)
            if failure == 0 { return candidate }
            guard failure == EEXIST else { throw cannotCreate(candidate, failure) }
        }
        throw ContactsDBError.databaseUnavailable(path: base, reason: "no free name for the backup taken before migrating")
    }

    /// Creates an empty file, readable by its owner only, failing if
    /// anything (a file, a link) is already there; returns 0 or the errno.
    private static func createExclusively(_ file: String) -> Int32 {
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return errno }
        close(descriptor)
        return 0
    }

    private static func cannotCreate(_ file: String, _ failure: Int32) -> ContactsDBError {
        .databaseUnavailable(
            path: file, reason: "the backup taken before migrating cannot be created there: \(DatabaseFile.reason(failure))")
    }

    /// Deletes all but the newest ``keptBeforeMigration`` backups beside
    /// `path` (by the time in their names), never `kept`, along with what a
    /// killed process left: half-written copies and empty reserved names.
    /// Names it does not recognize are left alone; a directory it cannot
    /// list is left as is.
    private static func prune(beside path: String, keeping kept: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let prefix = (path as NSString).lastPathComponent + ".before-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else { return }
        func fullPath(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        var backups: [(stamp: Substring, name: String)] = []
        for name in names where name.hasPrefix("." + prefix) && (name.hasSuffix(".tmp") || name.hasSuffix(".tmp-journal")) {
            unlink(fullPath(name))  // a copy half-written when its process was killed (AtomicFile)
        }
        for name in names where name.hasPrefix(prefix) && fullPath(name) != kept {
            if let match = name.wholeMatch(of: /.*-([0-9]{8}T[0-9]{9})(-[0-9]+)*\.sqlite/) {
                // Empty: a name reserved by a process killed before its copy
                // was renamed over it. A real backup is never empty.
                var info = stat()
                if lstat(fullPath(name), &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 {
                    unlink(fullPath(name))
                } else {
                    backups.append((match.1, name))
                }
            }
        }
        backups.sort { ($0.stamp, $0.name) < ($1.stamp, $1.name) }
        for old in backups.dropLast(keptBeforeMigration - 1) {
            unlink(fullPath(old.name))
        }
    }
}
