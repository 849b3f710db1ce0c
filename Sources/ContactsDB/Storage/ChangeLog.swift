import Foundation
import GRDB

/// The change counter, the contacts' revisions and the tombstones of
/// deleted contacts (Schema/0007): the engine advances the counter once
/// per write transaction, and the writer and the triggers stamp every row
/// that transaction touches with the new value.
package enum ChangeLog {
    /// The setting that holds the database's random identity.
    package static let identityKey = "databaseIdentity"
    /// The setting that holds the newest revision whose tombstones were
    /// dropped: a token older than that may miss a deletion.
    package static let compactedThroughKey = "changesCompactedThrough"

    /// Runs `body` in one write transaction that advances the counter
    /// first, so that whatever `body` writes carries a revision no earlier
    /// transaction had.
    package static func write<T>(_ writer: some DatabaseWriter, _ body: (Database) throws -> T) throws -> T {
        try writer.write { db in
            try advance(db)
            return try body(db)
        }
    }

    /// ``write(_:_:)`` without SQLite's foreign key checks, for a write
    /// that only adds rows and writes each child with the key its parent
    /// was just given (an import): the checks opened a cursor on the
    /// parent for every child row, which made the children's inserts four
    /// times dearer. The connection checks them again once the write ends,
    /// whatever its end; a delete in `body` would not cascade.
    package static func writeAdding<T>(_ writer: some DatabaseWriter, _ body: (Database) throws -> T) throws -> T {
        try writer.writeWithoutTransaction { db in
            try Connection.withoutForeignKeyChecks(db) {
                var result: T?
                try db.inTransaction {
                    try advance(db)
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        }
    }

    /// Advances the counter; a migration calls it once the counter exists,
    /// so that the rows it rewrites are stamped too.
    package static func advance(_ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE changeClock SET revision = revision + 1").execute()
    }

    /// Records what this write transaction is (Schema/0022's
    /// `contactWrite`): one row per write, whatever it writes.
    package static func record(_ source: ChangeSource, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO contactWrite (revision, at, by) VALUES ((SELECT revision FROM changeClock), ?, ?)
            """).execute(arguments: [Timestamp.string(from: Date()), source.rawValue])
    }

    package static func hasClock(_ db: Database) throws -> Bool {
        try db.tableExists("changeClock")
    }

    /// The counter: the revision of the last committed write (or of this
    /// transaction's, inside a write).
    package static func revision(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT revision FROM changeClock")) ?? 0
    }

    package static func identity(_ db: Database) throws -> String {
        try Settings.value(identityKey, db) ?? ""
    }

    package static func compactedThrough(_ db: Database) throws -> Int {
        try Settings.value(compactedThroughKey, db).flatMap { Int($0) } ?? 0
    }

    /// Each contact added, updated or deleted after `revision`, once, in
    /// revision order; every contact there is as added when `revision` is
    /// nil. A contact added and deleted since is left out: the reader
    /// never saw it.
    /// With `books`, only the contacts of those books, and the deletions
    /// of contacts that were in them.
    package static func changes(after revision: Int?, inBooks books: [BookID]? = nil, _ db: Database) throws
        -> [ContactChange]
    {
        var changes: [ContactChange] = []
        let inBooks = BookRecords.jsonArray(books)
        guard let revision else {
            try db.forEachRow("""
                SELECT id, revision FROM contact WHERE ?1 IS NULL OR bookId IN (SELECT value FROM json_each(?1))
                ORDER BY revision, id
                """, [inBooks]) {
                changes.append(ContactChange(id: $0.text(0), kind: .added, revision: $0.int(1)))
            }
            return changes
        }
        try db.forEachRow("""
            SELECT id, CASE WHEN addedRevision > ?1 THEN 'added' ELSE 'updated' END, revision
            FROM contact WHERE revision > ?1 AND (?2 IS NULL OR bookId IN (SELECT value FROM json_each(?2)))
            UNION ALL
            SELECT id, 'deleted', revision FROM contactTombstone WHERE revision > ?1 AND addedRevision <= ?1
                AND (?2 IS NULL OR bookId IN (SELECT value FROM json_each(?2)))
            ORDER BY 3, 1
            """, [revision, inBooks]) { row in
            changes.append(ContactChange(
                id: row.text(0), kind: ContactChange.Kind(rawValue: row.text(1)) ?? .updated, revision: row.int(2)))
        }
        return changes
    }

    /// Drops the tombstones of contacts deleted before `date`, and records
    /// how far back the history now reaches; returns how many were dropped.
    package static func compact(before date: Date, _ db: Database) throws -> Int {
        let cutoff = Timestamp.string(from: date)
        let newest = try Int.fetchOne(db, sql: "SELECT max(revision) FROM contactTombstone WHERE deletedAt < ?",
                                      arguments: [cutoff])
        try db.execute(sql: "DELETE FROM contactTombstone WHERE deletedAt < ?", arguments: [cutoff])
        let dropped = db.changesCount
        if let newest, newest > (try compactedThrough(db)) {
            try Settings.set(compactedThroughKey, to: String(newest), db)
        }
        return dropped
    }
}
