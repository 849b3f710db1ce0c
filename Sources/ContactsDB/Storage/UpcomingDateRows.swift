import Foundation
import GRDB

/// The birthdays and dates whose month and day lie in one span of a year's
/// days, found through the indexes on their last five characters
/// (Schema/0010), never by reading every contact.
enum UpcomingDateRows {
    struct Row {
        var id: String
        var displayName: String
        /// The contact's place in the default order, for ties on one day.
        var sortIndex: Int
        var sortKey: Data
        /// Nil for the birthday; else the date's label and place in `dates`.
        var label: String?
        var position: Int
        var value: String
    }

    /// `?1` and `?2`: the first and last `MM-DD` of the span; `?3` the
    /// ids of the books, as a JSON array, or NULL for every book.
    static let sql = """
        SELECT id, displayName, sortIndex, sortKey, NULL, 0, birthday FROM contact
        WHERE birthday IS NOT NULL AND substr(birthday, -5) BETWEEN ?1 AND ?2 AND \(inBooks)
        UNION ALL
        SELECT contact.id, contact.displayName, contact.sortIndex, contact.sortKey,
               contactDate.type, contactDate.position, contactDate.value
        FROM contactDate JOIN contact ON contact.pk = contactDate.contactPk
        WHERE substr(contactDate.value, -5) BETWEEN ?1 AND ?2 AND \(inBooks)
        """
    private static let inBooks = """
        (?3 IS NULL OR contact.bookId IN (SELECT value FROM json_each(?3)))
        """

    /// - parameter books: only the contacts of these books; nil for all.
    static func rows(monthDays first: String, through last: String, inBooks books: [BookRecords.ID]?, _ db: Database) throws
        -> [Row]
    {
        var rows: [Row] = []
        try db.forEachRow(sql, [first, last, books.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }]) { row in
            rows.append(Row(id: row.text(0), displayName: row.text(1), sortIndex: row.int(2), sortKey: row.blob(3),
                            label: row.optionalText(4), position: row.int(5), value: row.text(6)))
        }
        return rows
    }

    /// SQLite's plan for one span's rows.
    static func explain(_ db: Database) throws -> [String] {
        try QueryPlanner.explain(sql, ["01-01", "01-31", nil], db)
    }
}
