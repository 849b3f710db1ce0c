import Foundation
import GRDB

/// The merge records (Schema/0014): each contact of a merge as it was, so
/// that an unmerge puts it back with its id, times and favorite place.
package enum MergeRecords {
    /// One contact of a merge as it was just before it.
    package struct Part {
        package var contactID: String
        /// In the JSON format, photo included.
        package var contactJSON: String
        package var createdAt: String
        var updatedAt: String
        package var favoritePosition: Int?
        /// The uids of its groups.
        package var groupUIDs: [String] = []
    }

    package struct Stored {
        package var record: MergeRecord
        package var intoRevision: Int
        /// The survivor first, then the merged contacts in the order given.
        package var parts: [Part]
    }

    /// The part of a stored contact, given as JSON with its photo.
    package static func part(id: String, json: String, pk: Int64, _ db: Database) throws -> Part {
        var part = Part(contactID: id, contactJSON: json, createdAt: "", updatedAt: "")
        try db.forEachRow("SELECT createdAt, updatedAt, favoritePosition FROM contact WHERE pk = ?", [pk]) { row in
            (part.createdAt, part.updatedAt, part.favoritePosition) = (row.text(0), row.text(1), row.optionalInt(2))
        }
        try db.forEachRow("""
            SELECT g.uid FROM groupMember m JOIN contactGroup g ON g.pk = m.groupPk WHERE m.contactPk = ? ORDER BY g.uid
            """, [pk]) { part.groupUIDs.append($0.text(0)) }
        return part
    }

    /// Stores a merge; returns its id.
    package static func save(
        parts: [Part], intoRevision: Int, keptApart: [MergeResult.KeptApart], at date: Date, _ db: Database
    ) throws -> Int {
        let kept = "[" + keptApart.map {
            "{\"id\": \(JSONText.quote($0.id)), \"field\": \(JSONText.quote($0.field)), \"value\": \(JSONText.quote($0.value))}"
        }.joined(separator: ", ") + "]"
        // The id follows the highest ever given, so an unmerged one is
        // never reused (a retried `unmerge` must not take back another).
        try db.execute(sql: """
            INSERT INTO contactMerge (id, intoId, at, intoRevision, keptApart)
            VALUES ((SELECT lastId + 1 FROM contactMergeSequence), ?, ?, ?, ?)
            """, arguments: [parts[0].contactID, Timestamp.string(from: date), intoRevision, kept])
        let id = Int(db.lastInsertedRowID)
        for (position, part) in parts.enumerated() {
            try db.execute(sql: """
                INSERT INTO contactMergePart
                    (mergeId, position, contactId, contact, createdAt, updatedAt, favoritePosition, groupUids)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [id, position, part.contactID, part.contactJSON, part.createdAt, part.updatedAt,
                                 part.favoritePosition, part.groupUIDs.joined(separator: "\n")])
        }
        return id
    }

    /// Every merge not taken back, oldest first.
    package static func all(_ db: Database) throws -> [MergeRecord] {
        var records: [MergeRecord] = []
        try db.forEachRow("""
            SELECT m.id, m.intoId, m.at, (SELECT group_concat(contactId, char(31)) FROM
                (SELECT contactId FROM contactMergePart WHERE mergeId = m.id AND position > 0 ORDER BY position))
            FROM contactMerge m ORDER BY m.id
            """, []) { row in
            records.append(MergeRecord(
                id: row.int(0), into: row.text(1), merged: row.text(3).split(separator: "\u{1f}").map(String.init),
                at: Timestamp.date(from: row.text(2)) ?? Date(timeIntervalSince1970: 0)))
        }
        return records
    }

    package static func load(id: Int, _ db: Database) throws -> Stored? {
        var stored: Stored?
        try db.forEachRow("SELECT intoId, at, intoRevision FROM contactMerge WHERE id = ?", [id]) { row in
            stored = Stored(record: MergeRecord(id: id, into: row.text(0), merged: [],
                                                at: Timestamp.date(from: row.text(1)) ?? Date(timeIntervalSince1970: 0)),
                            intoRevision: row.int(2), parts: [])
        }
        guard var stored else { return nil }
        try db.forEachRow("""
            SELECT contactId, contact, createdAt, updatedAt, favoritePosition, groupUids FROM contactMergePart
            WHERE mergeId = ? ORDER BY position
            """, [id]) { row in
            stored.parts.append(Part(contactID: row.text(0), contactJSON: row.text(1), createdAt: row.text(2),
                                     updatedAt: row.text(3), favoritePosition: row.optionalInt(4),
                                     groupUIDs: row.text(5).split(separator: "\n").map(String.init)))
        }
        stored.record.merged = stored.parts.dropFirst().map(\.contactID)
        return stored
    }

    /// The names of the groups of these uids that still exist.
    package static func groupNames(uids: [String], _ db: Database) throws -> [String] {
        var names: [String] = []
        try db.forEachRow("""
            SELECT name FROM contactGroup WHERE uid IN (SELECT value FROM json_each(?)) ORDER BY nameKey
            """, [JSONText.array(uids)]) { names.append($0.text(0)) }
        return names
    }

    package static func delete(id: Int, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM contactMerge WHERE id = ?", arguments: [id])
    }

    /// Gives a restored contact the times it had.
    package static func restoreTimes(pk: Int64, _ part: Part, _ db: Database) throws {
        try db.execute(sql: "UPDATE contact SET createdAt = ?, updatedAt = ? WHERE pk = ?",
                       arguments: [part.createdAt, part.updatedAt, pk])
    }

    /// Moves favorites to their positions, lowest first, so that each
    /// lands where it was when the others around it are as they were;
    /// a contact without a position leaves the favorites.
    package static func place(_ positions: [(pk: Int64, position: Int?)], _ db: Database) throws {
        let favorites = FavoriteList(db)
        for entry in positions { try favorites.remove(entry.pk) }
        for entry in positions.sorted(by: { ($0.position ?? .max) < ($1.position ?? .max) }) {
            if let position = entry.position { try favorites.insert(entry.pk, at: position) }
        }
    }
}
