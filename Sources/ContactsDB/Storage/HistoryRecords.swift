import Foundation
import GRDB

/// The versions of contacts that writes replaced (Schema/0022): per
/// change, the keys of the fields that changed and their values before as
/// JSON text, and what each write was (`contactWrite`).
package enum HistoryRecords {
    package static let daysKey = "historyDays"
    package static let versionsKey = "historyVersions"
    package static let defaultDays = 90
    package static let defaultVersions = 50

    /// One kept change of a contact.
    package struct Change {
        package var revision: Int
        package var at: Date
        package var previousRevision: Int
        package var previousAt: Date
        /// The keys of the fields that changed, as a JSON array.
        package var fields: String
        /// Their values before, as a JSON object.
        package var before: String

        package init(revision: Int, at: Date, previousRevision: Int, previousAt: Date, fields: String, before: String) {
            (self.revision, self.at, self.previousRevision, self.previousAt) = (revision, at, previousRevision, previousAt)
            (self.fields, self.before) = (fields, before)
        }
    }

    package static func days(_ db: Database) throws -> Int {
        try Settings.value(daysKey, db).flatMap { Int($0) } ?? defaultDays
    }

    /// The most versions kept per contact, the current one included.
    package static func versions(_ db: Database) throws -> Int {
        try Settings.value(versionsKey, db).flatMap { Int($0) } ?? defaultVersions
    }

    /// Keeps a change of the contact, then drops its changes beyond the
    /// settings' limits.
    package static func insert(_ change: Change, of id: String, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO contactVersion (contactId, revision, at, previousRevision, previousAt, fields, before)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                id, change.revision, Timestamp.string(from: change.at), change.previousRevision,
                Timestamp.string(from: change.previousAt), change.fields, change.before,
            ])
        try db.cachedStatement(sql: """
            DELETE FROM contactVersion WHERE contactId = ?1 AND revision <= coalesce(
                (SELECT revision FROM contactVersion WHERE contactId = ?1 ORDER BY revision DESC LIMIT 1 OFFSET ?2), -1)
            """).execute(arguments: [id, max(try versions(db) - 1, 0)])
        let cutoff = Date().addingTimeInterval(-Double(try days(db)) * 86_400)
        try db.cachedStatement(sql: "DELETE FROM contactVersion WHERE contactId = ? AND at < ?")
            .execute(arguments: [id, Timestamp.string(from: cutoff)])
    }

    /// Drops the changes of every contact written before `date`, reading
    /// the whole table; returns how many.
    package static func forget(before date: Date, _ db: Database) throws -> Int {
        try db.cachedStatement(sql: "DELETE FROM contactVersion WHERE at < ?").execute(arguments: [Timestamp.string(from: date)])
        return db.changesCount
    }

    /// The contact's kept changes, newest first.
    package static func changes(of id: String, _ db: Database) throws -> [Change] {
        var result: [Change] = []
        try db.forEachRow("""
            SELECT revision, at, previousRevision, previousAt, fields, before FROM contactVersion
            WHERE contactId = ? ORDER BY revision DESC
            """, [id]) { row in
            let date = { Timestamp.date(from: row.text($0)) ?? Date(timeIntervalSince1970: 0) }
            result.append(Change(revision: row.int(0), at: date(1), previousRevision: row.int(2), previousAt: date(3),
                                 fields: row.text(4), before: row.text(5)))
        }
        return result
    }

    /// The revision that added the contact with this id, if it exists.
    package static func addedRevision(of id: String, _ db: Database) throws -> Int? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT addedRevision FROM contact WHERE id = ?"), arguments: [id])
    }

    /// When and by what each of these revisions was written, where the
    /// write recorded it (``ChangeLog/record(_:_:)``).
    package static func writes(of revisions: [Int], _ db: Database) throws -> [Int: (at: Date, by: ChangeSource)] {
        var writes: [Int: (at: Date, by: ChangeSource)] = [:]
        try db.forEachRow("SELECT revision, at, by FROM contactWrite WHERE revision IN (SELECT value FROM json_each(?))",
                          ["[" + revisions.map(String.init).joined(separator: ",") + "]"]) {
            writes[$0.int(0)] = (Timestamp.date(from: $0.text(1)) ?? Date(timeIntervalSince1970: 0), ChangeSource(rawValue: $0.text(2)))
        }
        return writes
    }
}
