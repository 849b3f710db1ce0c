import Foundation
import GRDB

/// Keeps the stored keys in step with ``Collation/version``.
enum Reindexer {
    /// Reindexes when the stored keys were computed by another collation.
    /// Returns how many contacts were reindexed, or nil when none needed it.
    static func reindexIfCollationChanged(_ db: Database) throws -> Int? {
        guard try isCollationOutdated(db) else { return nil }
        return try reindexAll(db)
    }

    static func isCollationOutdated(_ db: Database) throws -> Bool {
        try storedVersion(db) != DerivedFields.version
    }

    static func reindexAll(_ db: Database) throws -> Int {
        let ids = try String.fetchAll(db, sql: "SELECT id FROM contact")
        let writer = try ContactWriter(db)
        // Emptied first, the phones' triggers write back exactly their
        // windows as each contact is replaced, and no stray row survives.
        try db.execute(sql: "DELETE FROM phoneWindow")
        for chunk in ids.chunked(into: 500) {
            let stored = try ContactReader.stored(ids: Array(chunk), db)
            for (pk, contact) in zip(stored.map(\.pk), try ContactReader.withChildren(stored, readingPhotos: false, db)) {
                try writer.replace(
                    pk: pk, contact.draft, createdAt: contact.createdAt, updatedAt: contact.updatedAt, keepingPhoto: true)
            }
        }
        // The triggers keep each person's union; this mends one out of step.
        try db.execute(sql: """
            UPDATE contact SET personAttributes = NULL WHERE personId IS NULL AND personAttributes IS NOT NULL;
            UPDATE contact SET personAttributes = person.attributes FROM personAttributesOf AS person
            WHERE contact.personId = person.personId AND contact.personAttributes IS NOT person.attributes;
            """)
        try rebuildCounts(db)
        // The triggers kept the index in step with each new row; a rebuild
        // also mends an index that had fallen out of step.
        try db.execute(sql: "INSERT INTO contactSearch (contactSearch) VALUES ('rebuild')")
        try Settings.set(Settings.collationVersionKey, to: DerivedFields.version, db)
        return ids.count
    }

    /// Recomputes the counts the triggers keep, from the contacts.
    static func rebuildCounts(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM sectionCount;
            INSERT INTO sectionCount (sortIndex, sectionKey, count) SELECT sortIndex, sectionKey, count FROM sectionCountOf;
            DELETE FROM attributeCount;
            INSERT INTO attributeCount (attributes, count) SELECT attributes, count FROM attributeCountOf;
            UPDATE sectionCount SET nonHeads = heads.count FROM nonHeadCountOf AS heads WHERE sectionCount.sortIndex = heads.sortIndex;
            INSERT INTO attributeCount (attributes, count, personDelta) SELECT attributes, 0, delta FROM personDeltaOf WHERE true
                ON CONFLICT (attributes) DO UPDATE SET personDelta = excluded.personDelta;
            """)
    }

    static func storedVersion(_ db: Database) throws -> String? {
        try Settings.value(Settings.collationVersionKey, db)
    }
}
