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
        /// When the contact was last written, as stored.
        var updatedAt: String
    }

    /// `?1` and `?2`: the first and last `MM-DD` of the span; `?3` the
    /// ids of the books, as a JSON array, or NULL for every book.
    static let sql = """
        SELECT id, displayName, sortIndex, sortKey, NULL, 0, birthday, updatedAt FROM contact
        WHERE birthday IS NOT NULL AND substr(birthday, -5) BETWEEN ?1 AND ?2 AND \(inBooks(3))
        UNION ALL
        SELECT contact.id, contact.displayName, contact.sortIndex, contact.sortKey,
               contactDate.type, contactDate.position, contactDate.value, contact.updatedAt
        FROM contactDate JOIN contact ON contact.pk = contactDate.contactPk
        WHERE substr(contactDate.value, -5) BETWEEN ?1 AND ?2 AND \(inBooks(3))
        """

    /// The books' condition on parameter `?n`: their ids as a JSON array,
    /// or NULL for every book.
    private static func inBooks(_ n: Int) -> String {
        "(?\(n) IS NULL OR contact.bookId IN (SELECT value FROM json_each(?\(n))))"
    }

    /// - parameter books: only the contacts of these books; nil for all.
    static func rows(monthDays first: String, through last: String, inBooks books: [BookID]?, _ db: Database) throws
        -> [Row]
    {
        var rows: [Row] = []
        try db.forEachRow(sql, [first, last, BookRecords.jsonArray(books)]) { row in
            rows.append(Row(id: row.text(0), displayName: row.text(1), sortIndex: row.int(2), sortKey: row.blob(3),
                            label: row.optionalText(4), position: row.int(5), value: row.text(6),
                            updatedAt: row.text(7)))
        }
        return rows
    }

    /// The lines kept in `extra` whose text names a date property (BDAY,
    /// ANNIVERSARY, X-ABDATE): dates a card wrote that are not dates here,
    /// kept as written. The caller reads each line's name.
    static func keptDateLines(inBooks books: [BookID]?, _ db: Database) throws -> [String] {
        var lines: [String] = []
        let sql = """
            SELECT extraProperty.line FROM extraProperty JOIN contact ON contact.pk = extraProperty.contactPk
            WHERE (instr(upper(extraProperty.line), 'BDAY') OR instr(upper(extraProperty.line), 'ANNIVERSARY')
                   OR instr(upper(extraProperty.line), 'X-ABDATE')) AND \(inBooks(1))
            """
        try db.forEachRow(sql, [BookRecords.jsonArray(books)]) { row in
            lines.append(row.text(0))
        }
        return lines
    }

    /// SQLite's plan for one span's rows.
    static func explain(_ db: Database) throws -> [String] {
        try QueryPlanner.explain(sql, ["01-01", "01-31", nil], db)
    }
}
