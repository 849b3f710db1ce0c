import Foundation

extension ContactStore {
    // MARK: - Remotes

    /// Every remote, one per book that syncs, in its book's name order.
    public func remotes() throws -> [Remote] {
        try read { db in try SyncState.remotes(db).map(\.remote) }
    }

    /// The remote of the book `name`, if it has one.
    public func remote(named name: String) throws -> Remote? {
        try read { db in try SyncState.remote(named: name, db)?.remote }
    }

    /// Forgets the remote and what was synced with it; its book, the
    /// book's contacts and the recorded conflicts stay, as a local book.
    ///
    /// - throws: ``ContactsDBError/remoteNotFound(name:)``, ``ContactsDBError/syncRunning(path:)`` when a
    ///   sync of this database does not end within the busy timeout.
    public func removeRemote(named name: String) throws {
        // A sync under way ends first: it would go on sending for a book
        // that syncs nowhere, and leave its records for the next binding.
        try holdingSyncLock {
            try write { db in
                guard let stored = try SyncState.remote(named: name, db) else { throw ContactsDBError.remoteNotFound(name: name) }
                try SyncState(book: stored.book).deleteRemote(db)
            }
        }
    }

    /// Runs `body` holding the lock a sync holds (`PATH-sync-lock`), so
    /// that no sync runs meanwhile: a sync under way is waited for, the
    /// busy timeout at most.
    ///
    /// - throws: `.syncRunning` when the sync does not end in time.
    package func holdingSyncLock<T>(_ body: () throws -> T) throws -> T {
        let lock: DatabaseFile.Lock?
        do {
            lock = path == ":memory:" ? nil : try DatabaseFile.Lock(beside: path, suffix: "-sync-lock", timeout: busyTimeout)
        } catch ContactsDBError.databaseBusy(let path) {
            throw ContactsDBError.syncRunning(path: path)
        }
        defer { withExtendedLifetime(lock) {} }
        return try body()
    }

    // MARK: - Conflicts

    /// The versions that lost a conflict, oldest first, until dismissed.
    public func conflicts() throws -> [SyncConflict] {
        try read { db in try SyncState.conflicts(db) }.map(Self.withLosingVersion)
    }

    /// - throws: ``ContactsDBError/conflictNotFound(id:)``.
    public func conflict(id: Int) throws -> SyncConflict {
        guard let found = try read({ db in try SyncState.conflicts(id: id, db) }).first else {
            throw ContactsDBError.conflictNotFound(id: id)
        }
        return Self.withLosingVersion(found)
    }

    /// Forgets a conflict's losing version.
    ///
    /// - throws: ``ContactsDBError/conflictNotFound(id:)``.
    public func dismissConflict(id: Int) throws {
        try write { db in
            guard try SyncState.deleteConflict(id: id, db) else { throw ContactsDBError.conflictNotFound(id: id) }
        }
    }

    // MARK: - Non public

    private static func withLosingVersion(_ found: (conflict: SyncConflict, losing: String?)) -> SyncConflict {
        var conflict = found.conflict
        conflict.losing = found.losing.flatMap { try? ContactJSON.decode(Data($0.utf8), source: "conflict").draft }
        return conflict
    }
}
