import GRDB

/// How every connection is set up, and the statements that frame a read.
enum Connection {
    /// Run on each new connection.
    static func prepare(_ db: Database) throws {
        // A bulk import touches a dozen indexes at once; SQLite's default
        // 2 MB cache makes that I/O-bound past a few thousand contacts.
        // The cache only grows as pages are used.
        try db.execute(sql: "PRAGMA cache_size = -65536")
        // With WAL, NORMAL never corrupts and never loses a commit when a
        // process dies; only a power cut may drop the last ones.
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }

    /// Runs `body` with SQLite's foreign key checks off on this
    /// connection, and on again after, whatever its end. SQLite takes the
    /// setting only outside a transaction, so `body` begins its own.
    static func withoutForeignKeyChecks<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
        return try body()
    }

    static func isWAL(_ db: Database) throws -> Bool {
        try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal"
    }

    /// Switches a file database to WAL unless it is; false when SQLite
    /// cannot (a file system without shared memory).
    static func enableWAL(_ db: Database) throws -> Bool {
        try isWAL(db) || String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal"
    }

    /// Runs `body` in one deferred (read) transaction begun and committed
    /// with cached statements: lighter than GRDB's `read`, which also
    /// toggles `query_only` around every call, and than `inTransaction`,
    /// which compiles BEGIN and COMMIT anew each time.
    static func reading<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
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
