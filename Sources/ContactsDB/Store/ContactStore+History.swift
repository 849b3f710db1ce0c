import Foundation
import GRDB

extension ContactStore {
    // MARK: - Reading the history

    /// The versions of a contact its history keeps, newest (the current
    /// one) first: each write that changed it (`add`, `update`, `web`,
    /// `import FILE`, `sync:REMOTE`, `merge`, `unmerge`, `move`, `restore`)
    /// kept the version it replaced, for ``historyDays()`` and at most
    /// ``historyVersions()`` per contact. Importing a new contact keeps
    /// nothing: its first version is the contact as imported.
    ///
    /// - throws: ``ContactsDBError/contactsNotFound(ids:)``.
    public func history(id: String) throws -> [ContactVersion] {
        try read { db in try ContactHistory.versions(of: id, db) }
    }

    /// The contact as it was at `revision`, one of the revisions
    /// ``history(id:)`` lists, with that version's `updatedAt` and
    /// `revision`.
    ///
    /// - throws: ``ContactsDBError/contactsNotFound(ids:)``,
    ///   ``ContactsDBError/revisionNotInHistory(id:revision:available:)``.
    public func contact(id: String, revision: Int) throws -> Contact {
        try read { db in try ContactHistory.contact(id, at: revision, db) }
    }

    /// Makes a contact as it was at `revision` again, as a new update
    /// (itself kept in the history, so that it can be undone too).
    ///
    /// - returns: the contact as now stored.
    /// - throws: ``ContactsDBError/contactsNotFound(ids:)``,
    ///   ``ContactsDBError/revisionNotInHistory(id:revision:available:)``;
    ///   nothing is written.
    @discardableResult
    public func restore(id: String, revision: Int) throws -> Contact {
        try write(by: .restore) { db in
            let stored = try ContactReader.stored(ids: [id], db)
            guard let pk = stored.first?.pk, let current = try ContactReader.withChildren(stored, db).first else {
                throw ContactsDBError.contactsNotFound(ids: [id])
            }
            let earlier = try ContactHistory.contact(id, at: revision, db).draft
            var unusual = UnusualValues()
            try ContactWriter(db).replaceKeepingHistory(
                pk: pk, try ContactValidator.imported(earlier, at: "", counting: &unusual), createdAt: current.createdAt,
                updatedAt: Date(), previous: current, db)
        }
        return try contacts(ids: [id])[0]
    }

    /// How many days the history keeps a replaced version (90 unless set).
    public func historyDays() throws -> Int {
        try read { db in try HistoryRecords.days(db) }
    }

    /// How many versions of a contact the history keeps at most, the
    /// current one included (50 unless set).
    public func historyVersions() throws -> Int {
        try read { db in try HistoryRecords.versions(db) }
    }

    // MARK: - Changing the history's limits

    /// Sets how many days the history keeps a replaced version; what is
    /// older goes at the next change of each contact.
    ///
    /// - precondition: `days >= 0`.
    public func setHistoryDays(_ days: Int) throws {
        precondition(days >= 0, "the history cannot keep versions for a negative number of days")
        try write { db in try Settings.set(HistoryRecords.daysKey, to: String(days), db) }
    }

    /// Sets how many versions of a contact the history keeps at most, the
    /// current one included; what is beyond goes at the next change of
    /// each contact.
    ///
    /// - precondition: `versions >= 1`.
    public func setHistoryVersions(_ versions: Int) throws {
        precondition(versions >= 1, "the history keeps at least the current version")
        try write { db in try Settings.set(HistoryRecords.versionsKey, to: String(versions), db) }
    }

    /// Forgets the versions replaced before `date`, in one transaction.
    ///
    /// - returns: how many replaced versions were forgotten.
    @discardableResult
    public func compactHistory(before date: Date) throws -> Int {
        try write { db in try HistoryRecords.forget(before: date, db) }
    }
}
