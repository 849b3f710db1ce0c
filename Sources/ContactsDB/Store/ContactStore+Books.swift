import Foundation
import GRDB

extension ContactStore {
    // MARK: - Books

    /// Every address book with its contact count and remote, in name order.
    public func books() throws -> [Book] {
        try read { db in try BookRecords.all(db) }
    }

    /// Whether the database has more than one book, so that a list names
    /// each contact's.
    public func hasSeveralBooks() throws -> Bool {
        try read { db in try BookRecords.count(db) > 1 }
    }

    /// Creates an empty local book.
    ///
    /// - throws: `.invalidBook(.exists)` when a book has the name in any
    ///   case, `.invalidBook(.invalidName)`.
    public func createBook(named name: String) throws {
        let name = try Self.bookName(name)
        try write { db in _ = try BookRecords.create(name, db) }
    }

    /// Renames a book, and so its remote; a change of case alone is allowed.
    public func renameBook(_ name: String, to newName: String) throws {
        let newName = try Self.bookName(newName)
        try write { db in try BookRecords.rename(try BookRecords.existingID(named: name, db), to: newName, db) }
    }

    /// Makes `name` the book that new contacts go into unless told otherwise.
    public func setDefaultBook(_ name: String) throws {
        try write { db in try BookRecords.setDefault(try BookRecords.existingID(named: name, db), db) }
    }

    /// Deletes a book with its groups and remote; a book that holds
    /// contacts is deleted only when they move to `target` first.
    ///
    /// - throws: `.invalidBook(.notEmpty)`, `.invalidBook(.isDefault)`,
    ///   `.invalidBook(.notFound)`, `.syncRunning` when a sync does not
    ///   end within the busy timeout; nothing is changed.
    public func deleteBook(_ name: String, movingContactsTo target: String? = nil) throws {
        // A sync of the book adds contacts to it until it ends.
        try holdingSyncLock { try deleteBookNow(name, movingContactsTo: target) }
    }

    private func deleteBookNow(_ name: String, movingContactsTo target: String?) throws {
        try write { db in
            let id = try BookRecords.existingID(named: name, db)
            let stored = try BookRecords.name(id, db)
            if id == (try BookRecords.defaultID(db)) { throw ContactsDBError.invalidBook(.isDefault(stored)) }
            let count = try BookRecords.contactCount(id, db)
            if let target {
                let targetID = try BookRecords.existingID(named: target, db)
                if targetID == id { throw ContactsDBError.invalidBook(.sameBook(stored)) }
                try Self.move(try ContactReader.pks(inBook: id, db), to: targetID, db)
            } else if count > 0 {
                throw ContactsDBError.invalidBook(.notEmpty(name: stored, contacts: count))
            }
            try BookRecords.delete(id, db)
        }
    }

    /// Moves contacts to another book, in one transaction. Each keeps its
    /// id, fields, photo and favorite place; its groups are the groups of
    /// the same names in the new book, made where missing. The next sync
    /// deletes its card from the old book's server and creates it on the
    /// new one's.
    ///
    /// - returns: the ids moved, without those already in `book`.
    /// - throws: `.contactsNotFound`, `.invalidBook(.notFound)`; nothing is
    ///   changed.
    @discardableResult
    public func move(ids: [String], toBook book: String) throws -> [String] {
        try write(by: .move) { db in
            let target = try BookRecords.existingID(named: book, db)
            let pks = try ContactReader.pks(ids: ids, db)
            let books = try BookRecords.ofContacts(pks, db)
            let moving = zip(ids, pks).filter { books[$0.1] != target }
            try Self.move(moving.map(\.1), to: target, db)
            return moving.map(\.0)
        }
    }

    // MARK: - Non public

    private static func move(_ pks: [Int64], to book: BookID, _ db: Database) throws {
        let groups = try GroupWriter(db, book: book)
        let revision = try ChangeLog.revision(db)
        for pk in pks {
            let old = try ContactReader.withChildren(ContactReader.stored(pks: [pk], db), db).first
            let names = try GroupWriter.names(ofContact: pk, db)
            try ContactWriter.setBook(book, ofContact: pk, db)
            for name in names { try groups.add(pk, inBook: book, toGroupNamed: name) }
            if let old, let new = try ContactReader.withChildren(ContactReader.stored(pks: [pk], db), db).first {
                try ContactHistory.record(old: old, new: new, revision: revision, db)
            }
        }
    }

    /// A book's name as given, its spaces tidied; a control character (a
    /// line break, a tab) is refused rather than tidied away unsaid.
    package static func bookName(_ name: String) throws -> String {
        let tidied = Text.tidy(name)
        guard !tidied.isEmpty, tidied.count <= 100, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw ContactsDBError.invalidBook(.invalidName(name)) }
        return tidied
    }
}
