import Foundation
import GRDB

/// The contacts database: opens (creating, migrating and seeding it as
/// SPEC §Semantics says) and owns the one GRDB connection every read and
/// write goes through.
///
/// ```swift
/// let store = try ContactStore.open(at: "contacts.sqlite")
/// let contact = try store.add(ContactDraft(firstName: "Иван", lastName: "Петров"))
/// ```
public final class ContactStore: Sendable {
    /// How a database is opened.
    public struct Options: Sendable {
        /// The migrations to apply; tests may pass their own set.
        public var migrations: [SchemaMigration] = SchemaMigration.bundled
        /// How long a write waits for another process's lock before failing
        /// with ``ContactsDBError/databaseBusy(path:)``.
        public var busyTimeout: TimeInterval = 5
        /// Whether opening imports the bundled seed into a database that was
        /// never seeded and did not decline it.
        public var seedsOnFirstOpen = true

        public init() {}
    }

    /// What opening did to the database.
    public struct OpenReport: Sendable {
        /// Migrations applied by this open, in order.
        public var appliedMigrations: [String] = []
        /// The backup taken beside the database before those migrations
        /// changed it, when it held contacts.
        public var backupBeforeMigration: String?
        /// The bundled seed, when this open imported it.
        public var seedImport: SeedImport?
        /// How many contacts this open reindexed because the stored keys
        /// were computed by another collation version; nil when none.
        public var reindexedContacts: Int?
    }

    public let path: String
    public let openReport: OpenReport
    let writer: DatabaseQueue
    let migrator: Migrator

    // MARK: - Opening

    /// Opens the database at `path`: creates the file (readable by its owner
    /// only) if missing, refuses it without writing if this build must not
    /// touch it, applies pending migrations, switches it to WAL, and imports
    /// the bundled seed once.
    ///
    /// - throws: ``ContactsDBError``: `.notContactsDatabase`,
    ///   `.databaseTooNew`, `.migrationEdited`, `.migrationFailed`,
    ///   `.databaseUnavailable`, `.databaseBusy`.
    public static func open(at path: String, options: Options = Options()) throws -> ContactStore {
        try createFileIfMissing(at: path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(options.busyTimeout)
        configuration.prepareDatabase { db in
            // A bulk import touches a dozen indexes at once; SQLite's default
            // 2 MB cache makes that I/O-bound past a few thousand contacts.
            // The cache only grows as pages are used.
            try db.execute(sql: "PRAGMA cache_size = -65536")
        }
        let queue = try DatabaseErrorMapping.mapping(path: path) {
            try DatabaseQueue(path: path, configuration: configuration)
        }
        return try ContactStore(path: path, queue: queue, options: options, usesWAL: true)
    }

    /// A private in-memory database, migrated and seeded as `options` says.
    public static func makeInMemory(options: Options = Options()) throws -> ContactStore {
        try ContactStore(path: ":memory:", queue: try DatabaseQueue(), options: options, usesWAL: false)
    }

    /// Where the database at `path` stands against `migrations`, read
    /// without migrating, seeding or writing anything.
    public static func migrationStatus(
        at path: String, migrations: [SchemaMigration] = SchemaMigration.bundled
    ) throws -> (applied: [(identifier: String, appliedAt: String)], pending: [String]) {
        guard FileManager.default.fileExists(atPath: path) else {
            return ([], migrations.map(\.identifier))
        }
        var configuration = Configuration()
        configuration.readonly = true
        let migrator = Migrator(migrations: migrations)
        return try DatabaseErrorMapping.mapping(path: path) {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            return try queue.read { db in
                try migrator.checkCompatibility(db, path: path)
                let status = try migrator.status(db)
                return (status.applied.map { ($0.migration.identifier, $0.appliedAt) },
                        status.pending.map(\.identifier))
            }
        }
    }

    private init(path: String, queue: DatabaseQueue, options: Options, usesWAL: Bool) throws {
        let migrator = Migrator(migrations: options.migrations)
        self.path = path
        self.migrator = migrator
        writer = queue
        var report = OpenReport()
        try DatabaseErrorMapping.mapping(path: path) {
            let pending = try queue.read { db in
                try migrator.checkCompatibility(db, path: path)
                return try migrator.status(db).pending
            }
            if usesWAL, let first = pending.first {
                report.backupBeforeMigration = try DatabaseBackup.beforeMigration(queue, at: path, migration: first.identifier)
            }
            report.appliedMigrations = try migrator.migrate(pending, queue)
            if usesWAL {
                try queue.writeWithoutTransaction { db in
                    if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                        try db.execute(sql: "PRAGMA journal_mode = WAL")
                    }
                    // With WAL, NORMAL never corrupts and never loses a commit
                    // when a process dies; only a power cut may drop the last ones.
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                }
            }
            // Both are checked in one read first, so that an open that has
            // nothing to do never waits for another process's write lock,
            // and checked again inside the write for a concurrent open.
            let (isCollationOutdated, isUnsettled) = try queue.read { db in
                (try Reindexer.isCollationOutdated(db), try SeedImporter.isUnsettled(db))
            }
            if isCollationOutdated {
                let reindexed = try queue.write(Reindexer.reindexIfCollationChanged)
                report.reindexedContacts = reindexed.flatMap { $0 > 0 ? $0 : nil }
            }
            if options.seedsOnFirstOpen, isUnsettled {
                report.seedImport = try queue.write(SeedImporter.seedIfFirstOpen)
            }
        }
        openReport = report
    }

    private static func createFileIfMissing(at path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        // SQLite gives the -wal and -shm files the database file's mode.
        let created = FileManager.default.createFile(
            atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        if !created {
            let directory = (path as NSString).deletingLastPathComponent
            let reason = FileManager.default.fileExists(atPath: directory.isEmpty ? "." : directory)
                ? "the file cannot be created there (check the directory's permissions)"
                : "the directory \(directory) does not exist"
            throw ContactsDBError.databaseUnavailable(path: path, reason: reason)
        }
    }

    // MARK: - Non public

    /// Runs `body` in one transaction; any error rolls it back whole.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try DatabaseErrorMapping.mapping(path: path) { try writer.write(body) }
    }

    /// Runs `body` in one deferred (read) transaction, so that its
    /// statements see one snapshot. Lighter than GRDB's `read`, which also
    /// toggles `query_only` around every call, and than `inTransaction`,
    /// which compiles BEGIN and COMMIT anew each time.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try DatabaseErrorMapping.mapping(path: path) {
            try writer.inDatabase { db in
                try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
                do {
                    let result = try body(db)
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                    return result
                } catch {
                    try? db.rollback()
                    throw error
                }
            }
        }
    }
}

/// Turns GRDB's errors into ``ContactsDBError``s that say what to do.
enum DatabaseErrorMapping {
    static func mapping<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw map(error, path: path)
        }
    }

    static func map(_ error: DatabaseError, path: String) -> ContactsDBError {
        let message = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .databaseBusy(path: path)
        case .SQLITE_NOTADB:
            return .notContactsDatabase(path: path, reason: "it is not an SQLite database")
        case .SQLITE_CORRUPT:
            return .databaseUnavailable(path: path, reason: "the file is corrupt (\(message)); restore it from a backup")
        case .SQLITE_READONLY:
            return .databaseUnavailable(path: path, reason: "it is read-only; make the file and its directory writable")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            return .databaseUnavailable(path: path, reason: "\(message); check that the path exists and is accessible")
        case .SQLITE_FULL:
            return .diskFull(path: path)
        case .SQLITE_IOERR:
            return .databaseUnavailable(path: path, reason: "an I/O error occurred (\(message))")
        default:
            return .databaseFailure(reason: message)
        }
    }
}
