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
    /// - throws: ``ContactsDBError/remoteNotFound(name:)``.
    public func removeRemote(named name: String) throws {
        try write { db in
            guard let stored = try SyncState.remote(named: name, db) else { throw ContactsDBError.remoteNotFound(name: name) }
            try SyncState(book: stored.book).deleteRemote(db)
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

    // MARK: - Non public

    private static func withLosingVersion(_ found: (conflict: SyncConflict, losing: String?)) -> SyncConflict {
        var conflict = found.conflict
        conflict.losing = found.losing.flatMap { try? ContactJSON.decode(Data($0.utf8), source: "conflict").draft }
        return conflict
    }
}
