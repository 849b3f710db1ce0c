import Foundation
import GRDB

/// Writes validated contacts and their children, with statements prepared
/// once for a whole write transaction. New contacts go into one book.
package final class ContactWriter {
    /// The book new contacts go into.
    package let book: BookID
    /// Whether a contact whose id is another book's contact's takes a new id
    /// and keeps the one it came with as its card's UID (the same card may be
    /// in two books: docs/sync.md, "Several address books, each with its own
    /// server"), rather than failing as a typed id does.
    package var rehomingTakenIDs = false
    private let db: Database
    private let insertContact, updateContact: SQLiteStatement
    /// Each child table with its insert, in the order they are written.
    private let insertChildren: [(table: ContactRows.Table, statement: SQLiteStatement)]
    private let deleteChildren: [SQLiteStatement]
    private let favorites: FavoriteList
    private let groups: GroupWriter
    private let photos: PhotoWriter
    /// The database's default phone regions, read once per write.
    package let regions: PhoneRegions
    /// This write transaction's revision (``ChangeLog/write(_:_:)``),
    /// written with each row rather than by a trigger, which would write
    /// every row of an import twice.
    package let revision: Int
    /// Whether a group card may be waiting for a contact still to come
    /// (`groupPendingMember`): read once, set by each group card written, so
    /// that an insert looks only then.
    private var mayJoinPendingGroups: Bool

    /// The contact's columns: its encoded row's, then what each write sets.
    private static let contactColumns = ContactRows.Table.contact.columns + ["createdAt", "updatedAt", "revision"]

    /// - parameter book: the book new contacts go into; nil for the
    ///   default book.
    package init(_ db: Database, book: BookID? = nil) throws {
        let book = try book ?? BookRecords.defaultID(db)
        self.book = book
        self.db = db
        let columns = Self.contactColumns
        // A favorite takes the last place as it is inserted, not by an
        // update after, which would write its row twice.
        insertContact = try SQLiteStatement(db, """
            INSERT INTO contact (\(columns.joined(separator: ", ")), id, addedRevision, bookId, uid, favoritePosition)
            VALUES (\(Array(repeating: "?", count: columns.count + 4).joined(separator: ", ")),
                    CASE WHEN ? THEN (\(FavoriteList.nextPositionSQL)) END)
            """)
        updateContact = try SQLiteStatement(db, """
            UPDATE contact SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE pk = ?
            """)
        insertChildren = try ContactRows.Table.children.map { table in
            (table, try SQLiteStatement(db, """
                INSERT INTO \(table.name) (contactPk, \(table.columns.joined(separator: ", ")))
                VALUES (?\(String(repeating: ", ?", count: table.columns.count)))
                """))
        }
        // Every table whose rows belong to one contact and are rewritten with it.
        deleteChildren = try (ContactRows.Table.children.map(\.name) + ["groupMember"]).map {
            try SQLiteStatement(db, "DELETE FROM \($0) WHERE contactPk = ?")
        }
        favorites = FavoriteList(db)
        groups = try GroupWriter(db, book: book)
        photos = try PhotoWriter(db)
        regions = try Settings.phoneRegions(db)
        revision = try ChangeLog.revision(db)
        mayJoinPendingGroups = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM groupPendingMember)") ?? false
    }

    /// Inserts a validated draft; returns its id.
    package func insert(_ draft: ContactDraft, at path: String, now: String) throws -> String {
        try insert(draft, DerivedFields(draft, regions: regions), at: path, now: now)
    }

    /// Inserts a validated draft whose fields were derived beforehand.
    package func insert(_ draft: ContactDraft, _ derived: DerivedFields, at path: String, now: String) throws -> String {
        try insert([NewContact(draft: draft, derived: derived, path: path)][...], now: now)[0].get()
    }

    /// A validated draft with its derived fields, and where it was read:
    /// its rows encoded as it is made, on the thread that derived it, and
    /// what else the writer needs. The draft's texts and lists are let go
    /// there too, where they were made, rather than on the writer's thread.
    package struct NewContact: Sendable {
        let rows: ContactRows
        let id: String?
        let uid: String?
        let isFavorite: Bool
        let groups: [String]
        let photo: ContactPhoto?
        let image: PhotoImage?
        let path: String

        package init(draft: ContactDraft, derived: DerivedFields, path: String) {
            rows = ContactRows(draft, derived)
            (id, uid, isFavorite, groups, photo, image) = (draft.id, draft.uid, draft.isFavorite, draft.groups, draft.photo, derived.photo)
            self.path = path
        }
    }

    /// Inserts validated drafts whose fields were derived beforehand, the
    /// contacts' rows first and then their children table by table, so
    /// that each table's newest pages stay in the processor's caches;
    /// returns each one's id in order.
    ///
    /// - parameter skippingTakenIDs: a contact whose id is taken is left
    ///   out with its error in its place, instead of failing the write.
    package func insert(
        _ contacts: ArraySlice<NewContact>, now: String, skippingTakenIDs: Bool = false
    ) throws -> [Result<String, ContactsDBError>] {
        var now = now
        var results: [Result<String, ContactsDBError>] = []
        results.reserveCapacity(contacts.count)
        var written: [(pk: Int64, contact: Int)] = []
        written.reserveCapacity(contacts.count)
        // Read in place: each copy of a contact out of the slice would
        // retain every one of its texts and lists.
        try contacts.withUnsafeBufferPointer { contacts in
            for index in contacts.indices {
                var id = contacts[index].id ?? UUID().uuidString.lowercased()
                var uid = contacts[index].uid
                do {
                    try insert(contacts[index], id: id, uid: uid, now: &now)
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                    // Found only once the insert fails, so that an import
                    // pays nothing for the ids it may take.
                    if rehomingTakenIDs, uid == nil, let other = try book(ofID: id), other != book {
                        (uid, id) = (id, try freeID(for: id))
                        try insert(contacts[index], id: id, uid: uid, now: &now)
                    } else {
                        let path = contacts[index].path
                        let taken = ContactsDBError.duplicateContactID(field: path.isEmpty ? "id" : "\(path).id", id: id)
                        guard skippingTakenIDs else { throw taken }
                        results.append(.failure(taken))
                        continue
                    }
                }
                let pk = insertContact.lastInsertedRowID
                written.append((pk, index))
                if contacts[index].photo != nil {
                    try photos.write(pk: pk, contacts[index].photo, contacts[index].image)
                }
                if mayJoinPendingGroups { try groups.joinPendingGroups(pk, cardUID: uid ?? id) }
                results.append(.success(id))
            }
            try writeChildren(written, of: contacts, inBook: book)
        }
        return results
    }

    /// Inserts one contact's row under `id`.
    private func insert(_ contact: borrowing NewContact, id: String, uid: String?, now: inout String) throws {
        var id = id
        // After the encoded row: createdAt, updatedAt and revision
        // (``contactColumns``), then id, addedRevision, the book, the uid
        // and whether the contact is a favorite.
        try contact.rows.withContactBound(to: insertContact) { next in
            try id.withUTF8 { id in
                insertContact.bindText(UnsafeRawBufferPointer(id), at: next + 3)
                insertContact.bind(Int64(revision), at: next + 2)
                insertContact.bind(Int64(revision), at: next + 4)
                insertContact.bind(book.rawValue, at: next + 5)
                insertContact.bindCopying(uid, at: next + 6)
                insertContact.bind(contact.isFavorite ? 1 : 0, at: next + 7)
                try now.withUTF8 { now in
                    insertContact.bindText(UnsafeRawBufferPointer(now), at: next)
                    insertContact.bindText(UnsafeRawBufferPointer(now), at: next + 1)
                    try insertContact.run()
                }
            }
        }
    }

    /// The book of the contact with this id, if there is one.
    private func book(ofID id: String) throws -> BookID? {
        try BookID.fetchOne(db.cachedStatement(sql: "SELECT bookId FROM contact WHERE id = ?"), arguments: [id])
    }

    /// An id for a card whose UID is another book's contact's id: the UID
    /// and this book's name (`UID@work`), numbered when that is taken too.
    private func freeID(for uid: String) throws -> String {
        let base = uid + "@" + (try BookRecords.name(book, db))
        var candidate = base, number = 1
        while try book(ofID: candidate) != nil {
            number += 1
            candidate = base + "-\(number)"
        }
        return candidate
    }

    /// Replaces a stored contact's fields and children with a validated draft.
    /// A change a person or a sync makes keeps what it replaced in the
    /// history: ``replaceKeepingHistory(pk:_:createdAt:updatedAt:previous:_:)``.
    ///
    /// - parameter keepingPhoto: true leaves the stored photo and its
    ///   thumbnail as they are, for rewrites of derived fields that read the
    ///   draft from the database.
    package func replace(pk: Int64, _ draft: ContactDraft, createdAt: Date, updatedAt: Date, keepingPhoto: Bool = false) throws {
        for statement in deleteChildren { try statement.execute(.int(Int(pk))) }
        var derived = DerivedFields(draft, regions: regions, thumbnailing: !keepingPhoto)
        if !keepingPhoto { try photos.write(pk: pk, draft.photo, derived.photo) }
        // A rewrite that reads no photo keeps the one stored, and its bit.
        else if try PhotoReader.exists(pk: pk, db) { derived.attributes.insert(.photo) }
        let contact = NewContact(draft: draft, derived: derived, path: "")
        var (created, updated) = (Timestamp.string(from: createdAt), Timestamp.string(from: updatedAt))
        // After the encoded row: createdAt, updatedAt and revision, then the key.
        try contact.rows.withContactBound(to: updateContact) { next in
            try created.withUTF8 { created in
                try updated.withUTF8 { updated in
                    updateContact.bindText(UnsafeRawBufferPointer(created), at: next)
                    updateContact.bindText(UnsafeRawBufferPointer(updated), at: next + 1)
                    updateContact.bind(Int64(revision), at: next + 2)
                    updateContact.bind(pk, at: next + 3)
                    try updateContact.run()
                }
            }
        }
        // The groups are those of the contact's own book, read only when it has any.
        let book = try draft.groups.isEmpty ? self.book : BookRecords.ofContacts([pk], db)[pk] ?? self.book
        try [contact].withUnsafeBufferPointer { try writeChildren([(pk, 0)], of: $0, inBook: book) }
        try draft.isFavorite ? favorites.append(pk) : favorites.remove(pk)
    }

    /// Takes a group card in as its group (``GroupWriter/write(_:exactly:_:)``).
    package func write(_ card: GroupCard, exactly: Bool = false, matchingName: Bool = true, _ db: Database) throws {
        try groups.write(card, exactly: exactly, matchingName: matchingName, db)
        if !card.members.isEmpty { mayJoinPendingGroups = true }
    }

    /// Puts the contact into another book, out of its groups (a group holds
    /// contacts of its own book); its revision moves, as for any change.
    package static func setBook(_ book: BookID, ofContact pk: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM groupMember WHERE contactPk = ?").execute(arguments: [pk])
        try db.cachedStatement(sql: "UPDATE contact SET bookId = ? WHERE pk = ?").execute(arguments: [book, pk])
    }

    /// Sets when the contact was last written, for a contact brought back
    /// as it was; its revision stays that of this write.
    package static func setUpdatedAt(_ date: Date, ofContact pk: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE contact SET updatedAt = ? WHERE pk = ?")
            .execute(arguments: [Timestamp.string(from: date), pk])
    }

    /// Deletes contacts by key; their children go with them.
    package static func delete(_ pks: Set<Int64>, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "DELETE FROM contact WHERE pk = ?")
        for pk in pks { try statement.execute(arguments: [pk]) }
    }

    // MARK: - Non public

    /// Writes the children of `contacts` whose rows are `rows`, table by
    /// table. The name words go in as they come: sorting a batch's words
    /// first saved SQLite a tenth of its time for them and cost more in
    /// comparisons than that.
    private func writeChildren(
        _ rows: [(pk: Int64, contact: Int)], of contacts: UnsafeBufferPointer<NewContact>, inBook book: BookID
    ) throws {
        for (table, insert) in insertChildren {
            for row in rows { try contacts[row.contact].rows.insert(table, pk: row.pk, with: insert) }
        }
        for row in rows {
            for name in contacts[row.contact].groups { try groups.add(row.pk, inBook: book, toGroupNamed: name) }
        }
    }
}
