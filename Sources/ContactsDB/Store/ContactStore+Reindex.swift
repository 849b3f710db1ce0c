import Foundation
import GRDB

extension ContactStore {
    /// Recomputes every contact's derived fields — sortName, sectionKey,
    /// sortIndex, sort keys, name words, folded search text and phone forms
    /// — in one transaction, and records the collation that computed them.
    ///
    /// - returns: how many contacts were reindexed.
    @discardableResult
    public func reindex() throws -> Int {
        try write(Reindexer.reindexAll)
    }

    /// The collation that computed the stored keys, and this build's.
    public func collationVersions() throws -> (stored: String?, current: String) {
        (try read(Reindexer.storedVersion), Collation.version)
    }
}

/// Keeps the stored keys in step with ``Collation/version``.
enum Reindexer {
    static let versionKey = "collationVersion"

    /// Reindexes when the stored keys were computed by another collation.
    /// Returns how many contacts were reindexed, or nil when none needed it.
    static func reindexIfCollationChanged(_ db: Database) throws -> Int? {
        guard try storedVersion(db) != Collation.version else { return nil }
        return try reindexAll(db)
    }

    static func reindexAll(_ db: Database) throws -> Int {
        let ids = try String.fetchAll(db, sql: "SELECT id FROM contact")
        let writer = try ContactWriter(db)
        for chunk in ids.chunked(into: 500) {
            let stored = try ContactReader.stored(ids: Array(chunk), db)
            for (pk, contact) in zip(stored.map(\.pk), try ContactReader.withChildren(stored, db)) {
                try writer.replace(pk: pk, contact.draft, createdAt: contact.createdAt, updatedAt: contact.updatedAt)
            }
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)",
            arguments: [versionKey, Collation.version])
        return ids.count
    }

    static func storedVersion(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [versionKey])
    }
}
