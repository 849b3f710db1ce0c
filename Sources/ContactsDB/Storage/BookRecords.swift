import Foundation
import GRDB

/// The address books (Schema/0017): their names, which one is the default,
/// and their ids, which every contact, group and sync record carries.
package enum BookRecords {
    /// Every book with its contact count and remote, in name order.
    package static func all(_ db: Database) throws -> [Book] {
        var counts: [BookID: Int] = [:]
        try db.forEachRow("SELECT bookId, count(*) FROM contact GROUP BY bookId", []) { counts[$0.bookID(0)] = $0.int(1) }
        var books: [Book] = []
        try db.forEachRow("""
            SELECT b.id, b.name, r.url, b.isDefault FROM book b LEFT JOIN remote r ON r.bookId = b.id
            """, []) { row in
            books.append(Book(name: row.text(1), contactCount: counts[row.bookID(0)] ?? 0,
                              remoteURL: row.optionalText(2), isDefault: row.bool(3)))
        }
        return books.sorted { Collation.precedes($0.name, $1.name) }
    }

    /// How many books the database has.
    package static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM book")) ?? 0
    }

    /// The book named `name` in any case, if there is one: compared in
    /// full case folding (`straße` is `STRASSE`), which a stored key made
    /// by an older build may not hold, so each name is folded here (a
    /// database holds a few books).
    package static func id(named name: String, _ db: Database) throws -> BookID? {
        let key = Text.caseFolded(name)
        var found: BookID?
        try db.forEachRow("SELECT id, name FROM book ORDER BY id", []) { row in
            if found == nil, Text.caseFolded(row.text(1)) == key { found = row.bookID(0) }
        }
        return found
    }

    /// The book named `name`, or the default book for nil.
    ///
    /// - throws: ``ContactsDBError/invalidBook(_:)`` naming an unknown book.
    package static func existingID(named name: String?, _ db: Database) throws -> BookID {
        guard let name else { return try defaultID(db) }
        guard let id = try id(named: name, db) else { throw ContactsDBError.invalidBook(.notFound(name)) }
        return id
    }

    package static func defaultID(_ db: Database) throws -> BookID {
        try BookID.fetchOne(db.cachedStatement(sql: "SELECT id FROM book WHERE isDefault = 1")) ?? BookID(rawValue: 1)
    }

    /// The name of every book, by id.
    package static func names(_ db: Database) throws -> [BookID: String] {
        var names: [BookID: String] = [:]
        try db.forEachRow("SELECT id, name FROM book", []) { names[$0.bookID(0)] = $0.text(1) }
        return names
    }

    package static func name(_ id: BookID, _ db: Database) throws -> String {
        try String.fetchOne(db.cachedStatement(sql: "SELECT name FROM book WHERE id = ?"), arguments: [id]) ?? ""
    }

    /// Creates a book; its name must be free in any case.
    @discardableResult
    package static func create(_ name: String, _ db: Database) throws -> BookID {
        if try id(named: name, db) != nil { throw ContactsDBError.invalidBook(.exists(name)) }
        // A deleted book's id is never given again: its tombstones would
        // be the new book's deletions in `changes --book`.
        try db.execute(sql: """
            INSERT INTO book (id, name, nameKey, createdAt)
            VALUES (max((SELECT coalesce(max(id), 0) FROM book), (SELECT coalesce(max(bookId), 0) FROM contactTombstone)) + 1,
                    ?, ?, ?)
            """, arguments: [name, Text.groupKey(name), Timestamp.string(from: Date())])
        return BookID(rawValue: db.lastInsertedRowID)
    }

    package static func rename(_ id: BookID, to name: String, _ db: Database) throws {
        if let other = try self.id(named: name, db), other != id { throw ContactsDBError.invalidBook(.exists(name)) }
        try db.execute(sql: "UPDATE book SET name = ?, nameKey = ? WHERE id = ?", arguments: [name, Text.groupKey(name), id])
    }

    package static func setDefault(_ id: BookID, _ db: Database) throws {
        try db.execute(sql: "UPDATE book SET isDefault = 0 WHERE isDefault = 1 AND id <> ?", arguments: [id])
        try db.execute(sql: "UPDATE book SET isDefault = 1 WHERE id = ?", arguments: [id])
    }

    package static func contactCount(_ id: BookID, _ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM contact WHERE bookId = ?"), arguments: [id]) ?? 0
    }

    /// Deletes an empty book with its groups, its remote and whatever its
    /// syncs left.
    package static func delete(_ id: BookID, _ db: Database) throws {
        try SyncState(book: id).deleteRemote(db)
        try db.execute(sql: "DELETE FROM contactGroup WHERE bookId = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM syncConflict WHERE bookId = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM book WHERE id = ?", arguments: [id])
    }

    /// The book of each contact, by the contact's key.
    package static func ofContacts(_ pks: [Int64], _ db: Database) throws -> [Int64: BookID] {
        let statement = try db.cachedStatement(sql: "SELECT bookId FROM contact WHERE pk = ?")
        var books: [Int64: BookID] = [:]
        for pk in pks { books[pk] = try BookID.fetchOne(statement, arguments: [pk]) }
        return books
    }

    /// The books as `json_each(?)` takes them, or nil for every book.
    package static func jsonArray(_ books: [BookID]?) -> String? {
        books.map { "[" + $0.map { String($0.rawValue) }.joined(separator: ",") + "]" }
    }
}

/// Bound and read as the row id it is.
extension BookID: DatabaseValueConvertible {}
