import Foundation
import GRDB

extension ContactStore {
    // MARK: - Groups

    /// Every group with its book and member count, in name order, then
    /// book order.
    public func groups() throws -> [ContactGroup] {
        try read { db in
            try GroupWriter.all(db).sorted {
                $0.name == $1.name ? Collation.precedes($0.book, $1.book) : Collation.precedes($0.name, $1.name)
            }
        }
    }

    /// Creates a group in `book` (nil: the default book).
    ///
    /// - throws: `.groupExists` when a group of the book has this name in
    ///   any case.
    public func createGroup(named name: String, inBook book: String? = nil) throws {
        let name = try ContactValidator.groupName(name, at: "name")
        try write { db in
            let book = try BookRecords.existingID(named: book, db)
            if let existing = try GroupWriter.pk(named: name, book: book, db) { throw try GroupWriter.exists(existing, db) }
            try GroupWriter(db, book: book).create(name)
        }
    }

    /// Renames a group; a change of case alone is allowed.
    ///
    /// - parameter name: the group's name now, in any case.
    /// - parameter newName: its new name, checked as a new group's is.
    /// - parameter book: the group's book, needed when several books have
    ///   a group of that name.
    public func renameGroup(_ name: String, to newName: String, inBook book: String? = nil) throws {
        let newName = try ContactValidator.groupName(newName, at: "name")
        try write { db in
            let pk = try GroupWriter.existingPK(named: name, inBook: book, db)
            let groupBook = try GroupWriter.book(ofGroup: pk, db)
            if let other = try GroupWriter.pk(named: newName, book: groupBook, db), other != pk { throw try GroupWriter.exists(other, db) }
            try GroupWriter.rename(pk, to: newName, db)
        }
    }

    /// Deletes a group; its contacts stay.
    public func deleteGroup(named name: String, inBook book: String? = nil) throws {
        try write { db in
            try GroupWriter.delete(try GroupWriter.existingPK(named: name, inBook: book, db), db)
        }
    }

    /// Adds contacts to a group; those already in it stay. Unknown ids, an
    /// unknown group or a contact of another book change nothing.
    public func addContacts(ids: [String], toGroup name: String, inBook book: String? = nil) throws {
        try write { db in
            let (group, contacts) = try membership(of: ids, inGroup: name, inBook: book, db)
            try GroupWriter.addMembers(contacts, to: group, db)
        }
    }

    /// Removes contacts from a group. Unknown ids, an unknown group or a
    /// contact of another book change nothing.
    public func removeContacts(ids: [String], fromGroup name: String, inBook book: String? = nil) throws {
        try write { db in
            let (group, contacts) = try membership(of: ids, inGroup: name, inBook: book, db)
            try GroupWriter.removeMembers(contacts, from: group, db)
        }
    }

    // MARK: - Non public

    /// The group named `name` that the contacts can be members of (the one
    /// of their book, unless a book is named), and the contacts' keys.
    private func membership(of ids: [String], inGroup name: String, inBook book: String?, _ db: Database) throws
        -> (group: Int64, contacts: [Int64])
    {
        let pks = try ContactReader.pks(ids: ids, db)
        let books = try BookRecords.ofContacts(pks, db)
        let own = Set(books.values)
        // Unnamed, the book is the contacts' own where it has the group;
        // else the one book that does, and a contact of another is refused.
        let group = try (book == nil && own.count == 1 ? GroupWriter.pk(named: name, book: own.first!, db) : nil)
            ?? GroupWriter.existingPK(named: name, inBook: book, db)
        let groupBook = try GroupWriter.book(ofGroup: group, db)
        if let (id, pk) = zip(ids, pks).first(where: { books[$0.1] != groupBook }) {
            throw ContactsDBError.invalidBook(.contactInOtherBook(
                id: id, book: try books[pk].map { try BookRecords.name($0, db) } ?? "", group: name,
                groupBook: try BookRecords.name(groupBook, db)))
        }
        return (group, pks)
    }
}
