import Foundation
import GRDB

/// The deleted contacts kept whole for `settings trash-days`
/// (Schema/0022), one row per deletion: the card as the JSON format
/// writes it, the photo's original bytes, and what the card does not say
/// (book, favorite place, links, dates).
package enum TrashRecords {
    /// The setting that holds how many days the trash keeps a contact.
    package static let daysKey = "trashDays"
    package static let defaultDays = 30

    /// One deletion as kept, its card as JSON text.
    package struct Row {
        package var id: String
        package var bookId: BookID
        /// The book's name: its own, or the one it had when it is gone.
        package var bookName: String
        package var displayName: String
        package var card: String
        package var photo: ContactPhoto?
        package var favoritePosition: Int?
        package var linkedIDs: [String]
        package var createdAt: Date
        package var updatedAt: Date
        /// The contact's revision when it was deleted.
        package var revision: Int
        package var deletedAt: Date
        package var deletedBy: ChangeSource

        package init(
            id: String, bookId: BookID, bookName: String, displayName: String, card: String,
            photo: ContactPhoto?, favoritePosition: Int?, linkedIDs: [String], createdAt: Date, updatedAt: Date,
            revision: Int, deletedAt: Date, deletedBy: ChangeSource
        ) {
            (self.id, self.bookId, self.bookName, self.displayName, self.card) = (id, bookId, bookName, displayName, card)
            (self.photo, self.favoritePosition, self.linkedIDs) = (photo, favoritePosition, linkedIDs)
            (self.createdAt, self.updatedAt, self.revision) = (createdAt, updatedAt, revision)
            (self.deletedAt, self.deletedBy) = (deletedAt, deletedBy)
        }
    }

    package static func days(_ db: Database) throws -> Int {
        try Settings.value(daysKey, db).flatMap { Int($0) } ?? defaultDays
    }

    /// The oldest deletion the trash still holds, by ``days(_:)``.
    package static func cutoff(_ db: Database) throws -> Date {
        Date().addingTimeInterval(-Double(try days(db)) * 86_400)
    }

    /// Keeps a deletion.
    package static func insert(_ row: Row, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO trashedContact (id, bookId, bookName, displayName, card, photoType, photo, favoritePosition,
                                        linkedIds, createdAt, updatedAt, revision, deletedAt, deletedBy)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                row.id, row.bookId, row.bookName, row.displayName, row.card, row.photo?.mediaType, row.photo?.data,
                row.favoritePosition, row.linkedIDs.isEmpty ? nil : row.linkedIDs.joined(separator: "\n"),
                Timestamp.string(from: row.createdAt), Timestamp.string(from: row.updatedAt), row.revision,
                Timestamp.string(from: row.deletedAt), row.deletedBy.rawValue,
            ])
    }

    /// The places among the favorites of the contacts of these keys that
    /// are favorites.
    package static func favoritePositions(_ pks: [Int64], _ db: Database) throws -> [Int64: Int] {
        var positions: [Int64: Int] = [:]
        try db.forEachRow("""
            SELECT pk, favoritePosition FROM contact
            WHERE pk IN (SELECT value FROM json_each(?)) AND favoritePosition IS NOT NULL
            """, ["[" + pks.map(String.init).joined(separator: ",") + "]"]) { positions[$0.int64(0)] = $0.int(1) }
        return positions
    }

    /// The deleted contacts the trash holds, newest first.
    ///
    /// - parameter books: only those deleted from books of these names
    ///   (any case); nil for all.
    package static func list(inBooks books: [String]?, _ db: Database) throws -> [TrashedContact] {
        var result: [TrashedContact] = []
        try db.forEachRow("""
            SELECT trash.id, trash.displayName, coalesce(book.name, trash.bookName), trash.deletedAt, trash.deletedBy
            FROM trashedContact AS trash LEFT JOIN book ON book.id = trash.bookId
            WHERE trash.deletedAt >= ?1
                AND (?2 IS NULL OR lower(coalesce(book.name, trash.bookName)) IN (SELECT lower(value) FROM json_each(?2)))
            ORDER BY trash.deletedAt DESC, trash.pk DESC
            """, [Timestamp.string(from: try cutoff(db)), books.map { JSONText.array($0) }]) { row in
            result.append(TrashedContact(
                id: row.text(0), name: row.text(1), book: row.text(2),
                deletedAt: Timestamp.date(from: row.text(3)) ?? Date(timeIntervalSince1970: 0),
                deletedBy: ChangeSource(rawValue: row.text(4))))
        }
        return result
    }

    /// The newest deletion of each of these ids the trash holds, by id,
    /// with its row key.
    package static func rows(ids: [String], _ db: Database) throws -> [String: (pk: Int64, row: Row)] {
        var result: [String: (pk: Int64, row: Row)] = [:]
        try db.forEachRow("""
            SELECT trash.pk, trash.id, trash.bookId, coalesce(book.name, trash.bookName), trash.displayName, trash.card,
                trash.photoType, trash.photo, trash.favoritePosition, trash.linkedIds, trash.createdAt, trash.updatedAt,
                trash.revision, trash.deletedAt, trash.deletedBy
            FROM trashedContact AS trash LEFT JOIN book ON book.id = trash.bookId
            WHERE trash.id IN (SELECT value FROM json_each(?1)) AND trash.deletedAt >= ?2
            ORDER BY trash.deletedAt, trash.pk
            """, [JSONText.array(ids), Timestamp.string(from: try cutoff(db))]) { row in
            let date = { Timestamp.date(from: row.text($0)) ?? Date(timeIntervalSince1970: 0) }
            // Later rows, newer deletions, replace earlier ones.
            result[row.text(1)] = (row.int64(0), Row(
                id: row.text(1), bookId: row.bookID(2), bookName: row.text(3), displayName: row.text(4), card: row.text(5),
                photo: row.optionalText(6).map { ContactPhoto(mediaType: $0, data: row.blob(7)) },
                favoritePosition: row.optionalInt(8),
                linkedIDs: row.optionalText(9)?.split(separator: "\n").map(String.init) ?? [],
                createdAt: date(10), updatedAt: date(11), revision: row.int(12), deletedAt: date(13),
                deletedBy: ChangeSource(rawValue: row.text(14))))
        }
        return result
    }

    /// Whether any deletion of `id` is kept, however old (one index seek).
    package static func holds(id: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM trashedContact WHERE id = ? LIMIT 1"),
                          arguments: [id]) ?? false
    }

    package static func remove(pk: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM trashedContact WHERE pk = ?").execute(arguments: [pk])
    }

    /// Records that the contact `id` came back out of the trash at
    /// `revision` (Schema/0024), so that its history reads across it.
    package static func recordReturn(of id: String, at revision: Int, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO contactReturn (contactId, revision) VALUES (?, ?)")
            .execute(arguments: [id, revision])
    }

    /// Whether the contact `id` came back out of the trash at `revision`.
    package static func returned(_ id: String, at revision: Int, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM contactReturn WHERE contactId = ? AND revision = ?"),
                          arguments: [id, revision]) ?? false
    }

    /// Drops what was deleted before `date` (everything when nil); returns
    /// how many.
    package static func empty(before date: Date?, _ db: Database) throws -> Int {
        if let date {
            try db.execute(sql: "DELETE FROM trashedContact WHERE deletedAt < ?", arguments: [Timestamp.string(from: date)])
        } else {
            try db.execute(sql: "DELETE FROM trashedContact")
        }
        return db.changesCount
    }
}
