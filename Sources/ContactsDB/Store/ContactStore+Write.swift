import Foundation
import GRDB

extension ContactStore {
    // MARK: - Adding

    /// Validates `draft`, computes its derived fields and stores it with its
    /// children in one transaction.
    ///
    /// - returns: the stored contact.
    /// - throws: ``ContactsDBError/invalidContact(field:reason:)`` or
    ///   ``ContactsDBError/duplicateContactID(field:id:)``; nothing is written.
    @discardableResult
    public func add(_ draft: ContactDraft, toBook book: String? = nil, by source: ChangeSource = .add) throws -> Contact {
        try add([draft], toBook: book, by: source)[0]
    }

    /// Adds every draft, or none of them: one transaction for all.
    /// Errors name the failing draft by its position (`contacts[3].age`).
    ///
    /// - parameter drafts: the contacts to add, in order.
    /// - parameter book: the address book they go into; nil for the
    ///   default book. An id is unique in the database, whatever the book.
    /// - parameter source: what adds them, as their history names it:
    ///   ``ChangeSource/add`` or ``ChangeSource/web``.
    @discardableResult
    public func add(_ drafts: [ContactDraft], toBook book: String? = nil, by source: ChangeSource = .add) throws -> [Contact] {
        let ids = try write(by: source) { db in
            let now = Timestamp.string(from: Date())
            let writer = try ContactWriter(db, book: try BookRecords.existingID(named: book, db))
            return try drafts.enumerated().map { index, draft in
                let path = drafts.count == 1 ? "" : "contacts[\(index)]"
                return try writer.insert(try ContactValidator.validated(draft, at: path), at: path, now: now)
            }
        }
        return try contacts(ids: ids)
    }

    // MARK: - Updating

    /// Applies `change` to the contact's draft and stores the result in one
    /// transaction: the fields `change` sets replace the stored ones, and a
    /// list it sets (phones, emails, …) replaces the stored list whole.
    ///
    /// ```swift
    /// try store.update(id: id) { $0.phones = [Phone(value: "+7 912 345-67-89")] }
    /// ```
    ///
    /// - parameter id: the contact's id.
    /// - parameter ifRevision: the ``Contact/revision`` the caller last
    ///   read; when the contact changed after it, nothing is written.
    /// - parameter source: what writes it, as its history names it:
    ///   ``ChangeSource/update`` or ``ChangeSource/web``.
    /// - parameter change: edits the contact's draft in place.
    /// - throws: ``ContactsDBError/contactsNotFound(ids:)``,
    ///   ``ContactsDBError/revisionConflict(id:expected:current:)`` or a
    ///   validation error; nothing is written.
    @discardableResult
    public func update(
        id: String, ifRevision: Int? = nil, by source: ChangeSource = .update, _ change: (inout ContactDraft) throws -> Void
    ) throws -> Contact {
        try write(by: source) { db in
            let stored = try ContactReader.stored(ids: [id], db)
            guard let pk = stored.first?.pk, let current = try ContactReader.withChildren(stored, db).first else {
                throw ContactsDBError.contactsNotFound(ids: [id])
            }
            try Self.require(current, unchangedSince: ifRevision)
            var draft = current.draft
            try change(&draft)
            if let newID = draft.id, newID != id {
                throw ContactsDBError.invalidContact(field: "id", reason: "an id cannot be changed; it stays \"\(id)\".")
            }
            draft.id = id
            try ContactWriter(db).replaceKeepingHistory(
                pk: pk, try ContactValidator.validated(draft), createdAt: current.createdAt, updatedAt: Date(),
                previous: current, db)
        }
        return try contacts(ids: [id])[0]
    }

    // MARK: - Deleting

    /// Deletes the contacts and their children in one transaction, keeping
    /// each whole in the trash (``trash(inBooks:)``, ``restore(ids:asNew:)``)
    /// unless ``trashDays()`` is 0. When any id is unknown, nothing is
    /// deleted.
    ///
    /// - parameter ids: the contacts' ids.
    /// - parameter ifRevision: the revision the caller last read; when any
    ///   of the contacts changed after it, nothing is deleted
    ///   (``ContactsDBError/revisionConflict(id:expected:current:)``).
    /// - parameter source: what deletes them, as the trash names it:
    ///   ``ChangeSource/delete`` or ``ChangeSource/web``.
    public func delete(ids: [String], ifRevision: Int? = nil, by source: ChangeSource = .delete) throws {
        try write(by: source) { db in
            let pks = try ContactReader.pks(ids: ids, db)
            if ifRevision != nil {
                for stored in try ContactReader.stored(ids: ids, db) {
                    try Self.require(stored.contact, unchangedSince: ifRevision)
                }
            }
            var seen: Set<Int64> = []
            let distinct = pks.filter { seen.insert($0).inserted }
            try TrashedCards.keep(distinct, by: source, db)
            try ContactWriter.delete(seen, db)
        }
    }

    // MARK: - Non public

    /// A revision later than the caller's means another write came
    /// between its read and this write. An earlier one is no conflict: a
    /// client may pass the newest revision it has seen anywhere.
    private static func require(_ contact: Contact, unchangedSince revision: Int?) throws {
        if let revision, contact.revision > revision {
            throw ContactsDBError.revisionConflict(id: contact.id, expected: revision, current: contact.revision)
        }
    }
}
