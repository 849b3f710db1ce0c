import Foundation
import GRDB

extension ContactStore {
    // MARK: - Reading the trash

    /// The deleted contacts the trash holds, newest first: each deletion
    /// by `delete`, the web app or a sync, kept for ``trashDays()``
    /// (docs/cli.md, "Nothing lost, even by mistake").
    ///
    /// - parameter books: only those deleted from the books of these names;
    ///   nil for all. A book that is gone is named as it was.
    public func trash(inBooks books: [String]? = nil) throws -> [TrashedContact] {
        try read { db in try TrashRecords.list(inBooks: books, db) }
    }

    /// The newest deletion of `id` the trash holds, as the contact was:
    /// every field, photo, groups and favorite status, its book and dates.
    ///
    /// - throws: ``ContactsDBError/notInTrash(ids:)``.
    public func trashedContact(id: String) throws -> (contact: Contact, trashed: TrashedContact) {
        try read { db in
            let entry = try TrashedCards.entries(ids: [id], db)[0]
            let row = entry.row
            let contact = Contact(entry.draft, regions: try Settings.phoneRegions(db), book: row.bookName,
                                  createdAt: row.createdAt, updatedAt: row.updatedAt, revision: row.revision)
            return (contact, TrashedContact(id: row.id, name: row.displayName, book: row.bookName,
                                            deletedAt: row.deletedAt, deletedBy: row.deletedBy))
        }
    }

    /// How many days the trash keeps a deleted contact (30 unless set).
    public func trashDays() throws -> Int {
        try read { db in try TrashRecords.days(db) }
    }

    // MARK: - Changing the trash

    /// Sets how many days the trash keeps a deleted contact; 0 keeps
    /// nothing and empties it. What is older than the new limit goes.
    ///
    /// - precondition: `days >= 0`.
    public func setTrashDays(_ days: Int) throws {
        precondition(days >= 0, "the trash cannot keep contacts for a negative number of days")
        try write { db in
            try Settings.set(TrashRecords.daysKey, to: String(days), db)
            _ = try TrashRecords.empty(before: days == 0 ? nil : TrashRecords.cutoff(db), db)
        }
    }

    /// Forgets the contacts deleted before `date`, or every one when nil,
    /// in one transaction.
    ///
    /// - returns: how many deletions were forgotten.
    @discardableResult
    public func emptyTrash(before date: Date? = nil) throws -> Int {
        try write { db in try TrashRecords.empty(before: date, db) }
    }

    /// Brings deleted contacts back as they were, all in one transaction:
    /// the same id, book, groups, favorite place, photo and dates, and the
    /// links to contacts that still exist (in other books). Each is an
    /// `added` change, so a sync pushes it to its book's server as a new
    /// card; it leaves the trash.
    ///
    /// ```swift
    /// try store.delete(ids: ["anna"])
    /// try store.restore(ids: ["anna"])
    /// ```
    ///
    /// - parameter ids: the ids the contacts had; an id deleted more than
    ///   once brings back its newest deletion.
    /// - parameter asNew: true gives each a new id and UID, so that it
    ///   comes back beside a contact that has its id now (without links).
    /// - returns: the ids they came back under, and the books that were
    ///   gone (their contacts go into the default book).
    /// - throws: ``ContactsDBError/notInTrash(ids:)`` naming every id the
    ///   trash does not hold, ``ContactsDBError/restoredIDInUse(id:)``
    ///   when another contact has an id now (without `asNew`); nothing is
    ///   written.
    @discardableResult
    public func restore(ids: [String], asNew: Bool = false) throws -> RestoreResult {
        try write(by: .restore) { db in
            var seen: Set<String> = []
            let entries = try TrashedCards.entries(ids: ids, db).filter { seen.insert($0.row.id).inserted }
            let books = try BookRecords.names(db), defaultBook = try BookRecords.defaultID(db)
            var result = RestoreResult(ids: [], goneBooks: [], defaultBook: nil)
            var writers: [BookID: ContactWriter] = [:]
            for entry in entries {
                let row = entry.row
                if !asNew, try ContactReader.stored(ids: [row.id], db).first != nil {
                    throw ContactsDBError.restoredIDInUse(id: row.id)
                }
                var book = row.bookId
                if books[book] == nil {
                    book = defaultBook
                    result.defaultBook = books[defaultBook]
                    if !result.goneBooks.contains(row.bookName) { result.goneBooks.append(row.bookName) }
                }
                let writer = try writers[book] ?? ContactWriter(db, book: book)
                writers[book] = writer
                let (id, pk) = try TrashedCards.bringBack(entry, asNew: asNew, into: writer, db)
                if !asNew { try Self.relink(pk, to: row.linkedIDs, db) }
                result.ids.append(id)
            }
            return result
        }
    }

    // MARK: - Non public

    /// Links a restored contact again to those of `ids` that still exist,
    /// unless that would put two cards of one book into one person.
    private static func relink(_ pk: Int64, to ids: [String], _ db: Database) throws {
        guard !ids.isEmpty else { return }
        let others = try ContactReader.pks(existingIDs: ids, db)
        guard !others.isEmpty, try cardsSharingABook(joining: [pk] + others, db) == nil else { return }
        try LinkRecords.link([pk] + others, db)
    }
}

extension Contact {
    /// A contact that is not stored (a deleted one, an earlier version),
    /// with its derived fields computed from `draft`.
    package init(_ draft: ContactDraft, regions: PhoneRegions, book: String, createdAt: Date, updatedAt: Date,
                 revision: Int) {
        let derived = DerivedFields(draft, regions: regions, thumbnailing: false)
        self.init(
            id: draft.id ?? "", firstName: draft.firstName, lastName: draft.lastName, company: draft.company,
            age: draft.age, phones: draft.phones, emails: draft.emails, addresses: draft.addresses,
            messengers: draft.messengers, isFavorite: draft.isFavorite, groups: draft.groups, details: draft.details,
            displayName: derived.displayName, sortName: derived.sortName, sectionKey: derived.sectionKey,
            sortIndex: derived.sortIndex, createdAt: createdAt, updatedAt: updatedAt, revision: revision,
            hasPhoto: draft.photo != nil, book: book, uid: draft.uid)
        for index in phones.indices where index < derived.phonesNormalized.count {
            let normalized = derived.phonesNormalized[index]
            phones[index].e164 = normalized.hasPrefix("+") ? normalized : nil
            phones[index].display = derived.phonesDisplayed[index]
        }
    }
}
