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
        guard try isCollationOutdated(db) else { return nil }
        return try reindexAll(db)
    }

    static func isCollationOutdated(_ db: Database) throws -> Bool {
        try storedVersion(db) != Collation.version
    }

    static func reindexAll(_ db: Database) throws -> Int {
        let ids = try String.fetchAll(db, sql: "SELECT id FROM contact")
        let writer = try ContactWriter(db)
        // Emptied first, the phones' triggers write back exactly their
        // windows as each contact is replaced, and no stray row survives.
        try db.execute(sql: "DELETE FROM phoneWindow")
        for chunk in ids.chunked(into: 500) {
            let stored = try ContactReader.stored(ids: Array(chunk), db)
            for (pk, contact) in zip(stored.map(\.pk), try ContactReader.withChildren(stored, db)) {
                try writer.replace(pk: pk, contact.draft, createdAt: contact.createdAt, updatedAt: contact.updatedAt)
            }
        }
        try rebuildCounts(db)
        try db.execute(
            sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)",
            arguments: [versionKey, Collation.version])
        return ids.count
    }

    /// Recomputes the counts the triggers keep, from the contacts.
    static func rebuildCounts(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM sectionCount;
            INSERT INTO sectionCount (sortIndex, sectionKey, count)
                SELECT sortIndex, sectionKey, count(*) FROM contact GROUP BY sortIndex;
            DELETE FROM attributeCount;
            INSERT INTO attributeCount (attributes, count)
                SELECT attributes, count(*) FROM contact GROUP BY attributes;
            """)
    }

    /// True when each contact's `nameWords` holds exactly its `nameWord`
    /// rows (the two plans of a name-prefix filter read one or the other).
    static let nameWordsMatchSQL = """
        SELECT NOT EXISTS (
            SELECT 1 FROM nameWord JOIN contact ON contact.pk = nameWord.contactPk
            WHERE instr(contact.nameWords || ' ', ' ' || CAST(nameWord.word AS TEXT) || ' ') = 0
        ) AND NOT EXISTS (
            SELECT 1 FROM contact
            WHERE length(nameWords) - length(replace(nameWords, ' ', ''))
                <> (SELECT count(*) FROM nameWord WHERE contactPk = contact.pk)
        )
        """

    /// True when each contact's attribute bits say what its children hold
    /// (queries skip the child tables its bits rule out).
    static let attributesMatchSQL: String = {
        let held = ContactAttributes.named.map { name, attribute in
            let rows = ["phone", "email", "address"].contains(name)
                ? "SELECT 1 FROM \(name) WHERE contactPk = contact.pk"
                : "SELECT 1 FROM messenger WHERE contactPk = contact.pk AND service = '\(name)'"
            return "EXISTS (\(rows)) * \(attribute.rawValue)"
        }
        return "SELECT NOT EXISTS (SELECT 1 FROM contact WHERE attributes <> \(held.joined(separator: " + ")))"
    }()

    /// True when `phoneWindow` holds exactly the windows of the phones.
    static let phoneWindowsMatchSQL = """
        SELECT NOT EXISTS (SELECT window, phoneKey FROM phoneWindow EXCEPT SELECT window, phoneKey FROM phoneWindowOf)
           AND NOT EXISTS (SELECT window, phoneKey FROM phoneWindowOf EXCEPT SELECT window, phoneKey FROM phoneWindow)
        """

    /// True when the kept counts equal those computed from the contacts.
    static let countsMatchSQL = """
        SELECT NOT EXISTS (
            SELECT sortIndex, sectionKey, count FROM sectionCount WHERE count > 0
            EXCEPT SELECT sortIndex, sectionKey, count(*) FROM contact GROUP BY sortIndex
        ) AND NOT EXISTS (
            SELECT sortIndex, sectionKey, count(*) FROM contact GROUP BY sortIndex
            EXCEPT SELECT sortIndex, sectionKey, count FROM sectionCount
        ) AND NOT EXISTS (
            SELECT attributes, count FROM attributeCount WHERE count > 0
            EXCEPT SELECT attributes, count(*) FROM contact GROUP BY attributes
        ) AND NOT EXISTS (
            SELECT attributes, count(*) FROM contact GROUP BY attributes
            EXCEPT SELECT attributes, count FROM attributeCount
        )
        """

    static func storedVersion(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [versionKey])
    }
}
