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

    /// Sets what a sync with the remote does with a property both sides
    /// changed.
    ///
    /// - throws: ``ContactsDBError/remoteNotFound(name:)``.
    public func setConflictHandling(_ handling: ConflictHandling, forRemote name: String) throws {
        try write { db in
            guard let stored = try SyncState.remote(named: name, db) else { throw ContactsDBError.remoteNotFound(name: name) }
            try SyncState(book: stored.book).setConflictHandling(handling, db)
        }
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

    /// Applies a conflict's losing version, as a new update that the
    /// contact's history keeps (the version it replaces included), and
    /// forgets the conflict: the next sync pushes it. A losing deletion
    /// deletes the contact into the trash; a losing version of a contact
    /// deleted since adds it again, in the conflict's book.
    ///
    /// - returns: the contact as now stored; nil when a deletion won.
    /// - throws: ``ContactsDBError/conflictNotFound(id:)``; nothing is
    ///   written.
    @discardableResult
    public func restoreConflict(id: Int) throws -> Contact? {
        let contactID = try write(by: .restore) { db -> String? in
            guard let found = try SyncState.conflicts(id: id, db).first, let book = try SyncState.conflictBook(id: id, db)
            else { throw ContactsDBError.conflictNotFound(id: id) }
            let conflict = Self.withLosingVersion(found)
            let stored = try ContactReader.stored(ids: [conflict.contactId], db)
            _ = try SyncState.deleteConflict(id: id, db)
            guard var losing = conflict.losing else {
                if let pk = stored.first?.pk {
                    try TrashedCards.keep([pk], by: .restore, db)
                    try ContactWriter.delete([pk], db)
                }
                return nil
            }
            losing.id = conflict.contactId
            var unusual = UnusualValues()
            let draft = try ContactValidator.imported(losing, at: "", counting: &unusual)
            if let pk = stored.first?.pk, let current = try ContactReader.withChildren(stored, db).first {
                try ContactWriter(db).replaceKeepingHistory(
                    pk: pk, draft, createdAt: current.createdAt, updatedAt: Date(), previous: current, db)
            } else {
                _ = try ContactWriter(db, book: book).insert(draft, at: "", now: Timestamp.string(from: Date()))
            }
            return conflict.contactId
        }
        return try contactID.flatMap { try contacts(ids: [$0]).first }
    }

    // MARK: - Non public

    private static func withLosingVersion(_ found: (conflict: SyncConflict, losing: String?)) -> SyncConflict {
        var conflict = found.conflict
        conflict.losing = found.losing.flatMap { try? ContactJSON.decode(Data($0.utf8), source: "conflict").draft }
        return conflict
    }
}
