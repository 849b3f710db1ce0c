import Foundation
import GRDB

/// Links between contacts that are one person (Schema/0019): a person key
/// on each linked contact, the pairs `unlink` keeps apart for good, and the
/// links a merge record keeps. Triggers keep each person's head and take a
/// deleted contact out of its link.
package enum LinkRecords {
    /// Where each contact is: its id, book and person (nil when unlinked).
    package struct Card: Hashable {
        package var pk: Int64
        package var id: String
        package var bookId: BookID
        package var personId: Int64?
    }

    /// The contacts of these keys, in the order given.
    package static func cards(_ pks: [Int64], _ db: Database) throws -> [Card] {
        var byPk: [Int64: Card] = [:]
        try db.forEachRow("""
            SELECT pk, id, bookId, personId FROM contact WHERE pk IN (SELECT value FROM json_each(?))
            """, [keys(pks)]) { row in
            byPk[row.int64(0)] = Card(pk: row.int64(0), id: row.text(1), bookId: row.bookID(2), personId: row.optionalInt(3).map(Int64.init))
        }
        return pks.compactMap { byPk[$0] }
    }

    /// Makes the contacts one person, with everyone already linked to any
    /// of them; pairs among them kept apart are no longer.
    package static func link(_ pks: [Int64], _ db: Database) throws {
        let cards = try cards(pks, db)
        let persons = Set(cards.compactMap(\.personId))
        let person = try persons.min() ?? Int64.fetchOne(db.cachedStatement(sql: """
            SELECT coalesce(max(personId), 0) + 1 FROM contact WHERE personId IS NOT NULL
            """)) ?? 1
        try db.execute(sql: """
            UPDATE contact SET personId = ?
            WHERE (pk IN (SELECT value FROM json_each(?)) OR personId IN (SELECT value FROM json_each(?)))
                AND personId IS NOT ?
            """, arguments: [person, keys(pks), keys(Array(persons)), person])
        let ids = try linkedIDs(person: person, db)
        try db.execute(sql: """
            DELETE FROM contactApart
            WHERE firstId IN (SELECT value FROM json_each(?1)) AND secondId IN (SELECT value FROM json_each(?1))
            """, arguments: [JSONText.array(ids)])
    }

    /// Takes a contact out of its link and keeps it apart from the others
    /// for good. Returns the ids it was linked to.
    @discardableResult
    package static func unlink(_ pk: Int64, _ db: Database) throws -> [String] {
        guard let card = try cards([pk], db).first, let person = card.personId else { return [] }
        let others = try linkedIDs(person: person, db).filter { $0 != card.id }
        try db.execute(sql: "UPDATE contact SET personId = NULL WHERE pk = ?", arguments: [pk])
        // A person of one card is no link.
        try db.execute(sql: """
            UPDATE contact SET personId = NULL
            WHERE personId = ?1 AND (SELECT count(*) FROM contact WHERE personId = ?1) = 1
            """, arguments: [person])
        for other in others { try keepApart(card.id, other, db) }
        return others
    }

    /// Records that two contacts are not one person.
    package static func keepApart(_ a: String, _ b: String, _ db: Database) throws {
        guard a != b else { return }
        try db.execute(sql: "INSERT OR IGNORE INTO contactApart (firstId, secondId) VALUES (?, ?)",
                       arguments: [min(a, b), max(a, b)])
    }

    /// Every pair kept apart among these ids, each as (smaller, larger).
    package static func apart(among ids: [String], _ db: Database) throws -> Set<[String]> {
        var pairs: Set<[String]> = []
        try db.forEachRow("""
            SELECT firstId, secondId FROM contactApart
            WHERE firstId IN (SELECT value FROM json_each(?1)) AND secondId IN (SELECT value FROM json_each(?1))
            """, [JSONText.array(ids)]) { pairs.insert([$0.text(0), $0.text(1)]) }
        return pairs
    }

    /// The ids of a person's cards, in the default order.
    package static func linkedIDs(person: Int64, _ db: Database) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: """
            SELECT id FROM contact WHERE personId = ? ORDER BY sortIndex, sortKey, id
            """), arguments: [person])
    }

    /// Every card (key and id) of each person among these contacts' (the
    /// contacts themselves included), in the default order, by the
    /// contact's key; a contact linked to none is not in the answer.
    package static func cards(ofPersonsOf pks: [Int64], _ db: Database) throws -> [Int64: [(pk: Int64, id: String)]] {
        var byPerson: [Int64: [(pk: Int64, id: String)]] = [:]
        var persons: [Int64: Int64] = [:]
        try db.forEachRow("""
            SELECT contact.pk, card.personId, card.pk, card.id
            FROM contact JOIN contact AS card ON card.personId = contact.personId
            WHERE contact.pk IN (SELECT value FROM json_each(?)) AND contact.personId IS NOT NULL
            ORDER BY card.personId, card.sortIndex, card.sortKey, card.id
            """, [keys(pks)]) { row in
            let (person, card) = (row.int64(1), row.int64(2))
            persons[row.int64(0)] = person
            if !(byPerson[person]?.contains { $0.pk == card } ?? false) { byPerson[person, default: []].append((card, row.text(3))) }
        }
        return persons.mapValues { byPerson[$0] ?? [] }
    }

    /// The ids of every card of each person among these contacts'
    /// (``cards(ofPersonsOf:_:)``).
    package static func linkedIDs(of pks: [Int64], _ db: Database) throws -> [Int64: [String]] {
        try cards(ofPersonsOf: pks, db).mapValues { $0.map(\.id) }
    }

    // MARK: - Merges

    /// Keeps, with a merge, the ids each of its contacts was linked to.
    package static func saveMergeLinks(_ links: [String: [String]], mergeID: Int, _ db: Database) throws {
        for (id, linked) in links where !linked.isEmpty {
            try db.execute(sql: "INSERT INTO contactMergeLink (mergeId, contactId, linkedIds) VALUES (?, ?, ?)",
                           arguments: [mergeID, id, linked.joined(separator: "\n")])
        }
    }

    /// The ids each contact of a merge was linked to.
    package static func mergeLinks(mergeID: Int, _ db: Database) throws -> [String: [String]] {
        var links: [String: [String]] = [:]
        try db.forEachRow("SELECT contactId, linkedIds FROM contactMergeLink WHERE mergeId = ?", [mergeID]) { row in
            links[row.text(0)] = row.text(1).split(separator: "\n").map(String.init)
        }
        return links
    }

    /// Takes these contacts out of their links, keeping nothing apart
    /// (an unmerge puts its links back as they were).
    package static func dissolve(_ pks: [Int64], _ db: Database) throws {
        let persons = try cards(pks, db).compactMap(\.personId)
        try db.execute(sql: "UPDATE contact SET personId = NULL WHERE personId IN (SELECT value FROM json_each(?))",
                       arguments: [keys(persons)])
    }

    private static func keys(_ values: [Int64]) -> String {
        "[" + values.map(String.init).joined(separator: ",") + "]"
    }
}
