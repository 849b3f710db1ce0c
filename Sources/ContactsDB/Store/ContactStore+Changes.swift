import Foundation

extension ContactStore {
    // MARK: - Changes

    /// The contacts added, updated or deleted since `token`, each once, and
    /// the token to pass next time. Without a token, every contact is
    /// listed as added: a reader's sync from scratch.
    ///
    /// ```swift
    /// var token: ChangeToken? = nil
    /// let set = try store.changes(since: token)
    /// // apply set.changes, then keep set.token
    /// token = set.token
    /// ```
    ///
    /// Becoming or ceasing to be a favorite and joining or leaving a group
    /// are updates of the contact.
    ///
    /// - throws: ``ContactsDBError/foreignChangeToken(token:)`` for a
    ///   token this database did not issue, and
    ///   ``ContactsDBError/expiredChangeToken(token:)`` for one older than
    ///   the history ``compactChanges(before:)`` kept.
    /// - parameter token: where the last call left off; nil lists every
    ///   contact as added.
    /// - parameter books: only the changes of these books' contacts; nil
    ///   for all. A contact moved out of a book is not listed as deleted
    ///   from it.
    public func changes(since token: ChangeToken?, inBooks books: [String]? = nil) throws -> ChangeSet {
        try read { db in
            let identity = try ChangeLog.identity(db), revision = try ChangeLog.revision(db)
            if let token {
                // A token ahead of the counter comes from a copy of this
                // database that went on without it (a backup restored).
                guard token.databaseIdentity == identity, token.revision <= revision else {
                    throw ContactsDBError.foreignChangeToken(token: token.description)
                }
                guard token.revision >= (try ChangeLog.compactedThrough(db)) else {
                    throw ContactsDBError.expiredChangeToken(token: token.description)
                }
            }
            return ChangeSet(
                token: ChangeToken(databaseIdentity: identity, revision: revision),
                changes: try ChangeLog.changes(
                    after: token?.revision, inBooks: books.map { try $0.map { try BookRecords.existingID(named: $0, db) } }, db))
        }
    }

    /// The token that stands for now: what ``changes(since:inBooks:)``
    /// would return as its next token.
    public func changeToken() throws -> ChangeToken {
        try read { db in ChangeToken(databaseIdentity: try ChangeLog.identity(db), revision: try ChangeLog.revision(db)) }
    }

    /// Reads `text` as a token of this database.
    ///
    /// - throws: ``ContactsDBError/foreignChangeToken(token:)`` when it is
    ///   not a token at all.
    public func changeToken(_ text: String) throws -> ChangeToken {
        guard let token = ChangeToken(text) else { throw ContactsDBError.foreignChangeToken(token: text) }
        return token
    }

    /// Forgets the contacts deleted before `date`, in the change feed and
    /// in the trash; a token from before the newest of those deletions is
    /// then refused as expired.
    ///
    /// - returns: how many deleted contacts were forgotten by the change
    ///   feed.
    @discardableResult
    public func compactChanges(before date: Date) throws -> Int {
        try write { db in
            _ = try TrashRecords.empty(before: date, db)
            return try ChangeLog.compact(before: date, db)
        }
    }
}
