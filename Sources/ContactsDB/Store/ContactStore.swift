import Foundation
import GRDB

/// The contacts database: opens (creating, migrating and seeding it:
/// docs/cli.md, "First run and seeding") and owns the one GRDB connection
/// every read and write goes through.
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
        /// Threads that validate and derive contacts coming in, by import
        /// or by sync, beside the one that reads and the one that writes;
        /// up to as many help SQLite sort the indexes a large import builds.
        public var workers = ImportPipeline.defaultWorkers

        /// The defaults: bundled migrations, seeding on first open, a 5 s wait.
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

    /// The database file's path, as opened.
    public let path: String
    /// What opening did: migrations, backup, seed, reindex.
    public let openReport: OpenReport
    /// How long a write, or a sync, waits for another process.
    package let busyTimeout: TimeInterval
    /// ``Options/workers``.
    package let workers: Int
    let writer: DatabaseQueue
    let migrator: Migrator
    /// The database file opened (``DatabaseFile/identity(_:)``), which every
    /// write checks `path` still names; nil in memory.
    private let file: [UInt64]?

    // MARK: - Opening

    /// Opens the database at `path`: creates the file (readable by its owner
    /// only) if missing, refuses it without writing if this build must not
    /// touch it, applies pending migrations, switches it to WAL, and imports
    /// the bundled seed once. Any number of processes may open one database
    /// at once: what changes it is done by one of them at a time, under
    /// a lock file beside the database, and the others find it done.
    ///
    /// - throws: ``ContactsDBError``: `.notContactsDatabase`,
    ///   `.databaseTooNew`, `.migrationEdited`, `.migrationRecordsDamaged`,
    ///   `.migrationFailed`, `.databaseUnavailable`, `.databaseBusy`.
    public static func open(at path: String, options: Options = Options()) throws -> ContactStore {
        try DatabaseFile.prepare(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(options.busyTimeout)
        configuration.prepareDatabase(Connection.prepare)
        let queue = try DatabaseErrorMapping.mapping(path: path) {
            try DatabaseQueue(path: path, configuration: configuration)
        }
        return try ContactStore(path: path, queue: queue, options: options, isFile: true)
    }

    /// A private in-memory database, migrated and seeded as `options` says.
    public static func makeInMemory(options: Options = Options()) throws -> ContactStore {
        try ContactStore(path: ":memory:", queue: try DatabaseQueue(), options: options, isFile: false)
    }

    /// Where the database at `path` stands against `migrations`, read
    /// without migrating, seeding or writing anything.
    public static func migrationStatus(
        at path: String, migrations: [SchemaMigration] = SchemaMigration.bundled
    ) throws -> (applied: [(identifier: String, appliedAt: String)], pending: [String]) {
        guard try DatabaseFile.checkExisting(path) else {
            return ([], migrations.map(\.identifier))
        }
        var configuration = Configuration()
        configuration.readonly = true
        let migrator = Migrator(migrations: migrations)
        return try DatabaseErrorMapping.mapping(path: path) {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            return try queue.read { db in
                let status = try migrator.status(db, path: path)
                return (status.applied.map { ($0.migration.identifier, $0.appliedAt) },
                        status.pending.map(\.identifier))
            }
        }
    }

    private init(path: String, queue: DatabaseQueue, options: Options, isFile: Bool) throws {
        let migrator = Migrator(migrations: options.migrations)
        self.path = path
        self.migrator = migrator
        busyTimeout = options.busyTimeout
        workers = max(1, options.workers)
        writer = queue
        file = isFile ? DatabaseFile.identity(path) : nil
        var report = OpenReport()
        try DatabaseErrorMapping.mapping(path: path) {
            // One read first, so that an open with nothing to do takes no
            // lock and writes nothing (a read-only database still reads).
            let hasWork = try queue.inDatabase { db in
                try Connection.reading(db) { db in
                    guard try migrator.status(db, path: path).pending.isEmpty else { return true }
                    return try (isFile && !Connection.isWAL(db))
                        || Reindexer.isCollationOutdated(db)
                        || (options.seedsOnFirstOpen && SeedImporter.isUnsettled(db))
                }
            }
            guard hasWork else { return }
            var lock: DatabaseFile.Lock?
            if isFile {
                try DatabaseFile.requireWritable(path)
                lock = try DatabaseFile.Lock(beside: path, timeout: options.busyTimeout)
                try queue.writeWithoutTransaction { db in
                    // Before migrating, so that readers of a new file never
                    // wait for its migrations.
                    guard try Connection.enableWAL(db) else {
                        throw ContactsDBError.databaseUnavailable(
                            path: path, reason: "it cannot be switched to WAL mode; move it to a local disk")
                    }
                }
                // Under the lock, no other process migrates: the records
                // read here stay true until this process changes them.
                let pending = try queue.read { db in try migrator.status(db, path: path).pending }
                report.backupBeforeMigration = try DatabaseBackup.beforeUpgrade(queue, at: path, pending: pending.map(\.identifier))
            }
            report.appliedMigrations = try migrator.migrate(queue, path: path)
            if report.backupBeforeMigration != nil { try queue.write(DatabaseBackup.upgradeEnded) }
            // Each checks again inside its own write transaction.
            report.reindexedContacts = try ChangeLog.write(queue, Reindexer.reindexIfCollationChanged)
                .flatMap { $0 > 0 ? $0 : nil }
            if options.seedsOnFirstOpen {
                report.seedImport = try ChangeLog.write(queue, SeedImporter.seedIfFirstOpen)
            }
            withExtendedLifetime(lock) {}
        }
        openReport = report
    }

    // MARK: - Non public

    /// Runs `body` in one transaction that advances the change counter;
    /// any error rolls it back whole.
    package func write<T>(_ body: (Database) throws -> T) throws -> T {
        try requireOpenedFile()
        return try DatabaseErrorMapping.mapping(path: path) { try ChangeLog.write(writer, body) }
    }

    /// ``write(_:)`` that records what wrote it (``ChangeLog/record(_:_:)``),
    /// which the history shows as each version's `by`.
    package func write<T>(by source: ChangeSource, _ body: (Database) throws -> T) throws -> T {
        try write { db in
            try ChangeLog.record(source, db)
            return try body(db)
        }
    }

    /// ``write(_:)`` for a body that only adds contacts and what they hold
    /// (``ChangeLog/writeAdding(_:_:)``).
    package func writeAdding<T>(_ body: (Database) throws -> T) throws -> T {
        try requireOpenedFile()
        return try DatabaseErrorMapping.mapping(path: path) { try ChangeLog.writeAdding(writer, body) }
    }

    /// Throws when `path` no longer names the file opened: every write
    /// checks it first (``DatabaseFile/requireStill(_:at:)``).
    package func requireOpenedFile() throws {
        if let file { try DatabaseFile.requireStill(file, at: path) }
    }

    /// Runs `body` in one deferred (read) transaction, so that its
    /// statements see one snapshot.
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        try DatabaseErrorMapping.mapping(path: path) {
            try writer.inDatabase { db in try Connection.reading(db, body) }
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
