import Foundation
import GRDB

/// The keys duplicates are found by (docs/cli.md, "Duplicates and
/// merging"), each read from the stored derived columns and grouped by
/// SQLite: a contact is compared only with those that share one of its
/// keys.
package enum DuplicateKeys {
    /// A key that several contacts share.
    package struct Shared {
        /// What they share, as the set's reasons say it.
        package var reasons: [String]
        package var pks: [Int64]
        /// True for a phone, an email or a handle: certain between contacts
        /// whose names do not differ. A name with a birthday, company or
        /// city is likely.
        package var isIdentifier: Bool
    }

    /// A name at ICU primary strength, first and last in either order:
    /// the two sort keys, the smaller first. The sort keys are of the
    /// phonetic names where a contact has them, as its sorting is.
    private static let nameKey = """
        min(ifnull(firstNameKey, x''), ifnull(lastNameKey, x'')), max(ifnull(firstNameKey, x''), ifnull(lastNameKey, x''))
        """
    private static let hasName = "(firstNameKey IS NOT NULL OR lastNameKey IS NOT NULL)"

    /// Every key more than one contact holds, identifiers first.
    package static func shared(_ db: Database) throws -> [Shared] {
        var result: [Shared] = []
        func collect(_ sql: String, identifier: Bool, _ reasons: @escaping (RawRow) -> [String]) throws {
            try db.forEachRow(sql, []) { row in
                let pks = row.text(0).split(separator: ",").compactMap { Int64($0) }
                result.append(Shared(reasons: reasons(row), pks: pks, isIdentifier: identifier))
            }
        }
        try collect("""
            SELECT group_concat(DISTINCT contactPk), normalized FROM phone WHERE normalized GLOB '+[0-9]*'
            GROUP BY normalized HAVING count(DISTINCT contactPk) > 1
            """, identifier: true) { ["phone " + $0.text(1)] }
        try collect("""
            SELECT group_concat(DISTINCT contactPk), lower(value) FROM email
            GROUP BY lower(value) HAVING count(DISTINCT contactPk) > 1
            """, identifier: true) { ["email " + $0.text(1)] }
        try collect("""
            SELECT group_concat(DISTINCT contactPk), lower(service), lower(handle) FROM messenger
            GROUP BY lower(service), lower(handle) HAVING count(DISTINCT contactPk) > 1
            """, identifier: true) { [$0.text(1) + " " + $0.text(2)] }
        for (fact, column) in [("birthday", "birthday"), ("company", "companyFolded")] {
            try collect("""
                SELECT group_concat(pk) FROM contact WHERE \(column) IS NOT NULL AND \(hasName)
                GROUP BY \(nameKey), \(column) HAVING count(*) > 1
                """, identifier: false) { _ in ["name", fact] }
        }
        try collect("""
            SELECT original.pk || ',' || copy.pk FROM keptBoth
            JOIN contact original ON original.id = keptBoth.contactId JOIN contact copy ON copy.id = keptBoth.copyId
            """, identifier: true) { _ in [keptBothReason] }
        try collect("""
            SELECT group_concat(DISTINCT pk) FROM contact JOIN address ON address.contactPk = contact.pk
            WHERE address.cityFolded <> '' AND \(hasName)
            GROUP BY \(nameKey), address.cityFolded HAVING count(DISTINCT pk) > 1
            """, identifier: false) { _ in ["name", "city"] }
        return result
    }

    /// Each contact's name key, as one blob (the two keys with a 0x01
    /// between: sort keys hold no 0x01); nil for a contact without a name.
    /// The copy a sync kept of a contact goes by the contact's name, as
    /// the two are one person whatever the conflict renamed.
    package static func names(of pks: [Int64], _ db: Database) throws -> [Int64: Data] {
        var names: [Int64: Data] = [:]
        try db.forEachRow("""
            SELECT pk, \(nameKey) FROM contact WHERE \(hasName) AND pk IN (SELECT value FROM json_each(?))
            """, [keys(pks)]) { row in
            names[row.int64(0)] = row.blob(1) + Data([1]) + row.blob(2)
        }
        try db.forEachRow("""
            SELECT original.pk, copy.pk FROM keptBoth
            JOIN contact original ON original.id = keptBoth.contactId JOIN contact copy ON copy.id = keptBoth.copyId
            """, []) { row in
            names[row.int64(1)] = names[row.int64(0)]
        }
        return names
    }

    /// The reason `duplicates` gives for a contact and the copy a sync kept of it.
    package static let keptBothReason = "kept both in a sync conflict"

    /// Records that `copyId` holds the local version of `contactId` a sync kept.
    package static func recordKeptBoth(contactId: String, copyId: String, _ db: Database) throws {
        try db.execute(sql: "INSERT OR IGNORE INTO keptBoth (contactId, copyId) VALUES (?, ?)",
                       arguments: [contactId, copyId])
    }

    /// The contacts' keys and ids, in the default sort.
    package static func inDefaultOrder(_ pks: [Int64], _ db: Database) throws -> [(pk: Int64, id: String)] {
        var ordered: [(pk: Int64, id: String)] = []
        try db.forEachRow("""
            SELECT pk, id FROM contact WHERE pk IN (SELECT value FROM json_each(?)) ORDER BY sortIndex, sortKey, id
            """, [keys(pks)]) { ordered.append(($0.int64(0), $0.text(1))) }
        return ordered
    }

    private static func keys(_ pks: [Int64]) -> String {
        "[" + pks.map(String.init).joined(separator: ",") + "]"
    }

    // MARK: - One contact among those stored

    /// What a contact coming in without an id is known by among those
    /// stored (`import --existing update|skip`): the keys that make a set
    /// `certain`, and its name.
    package struct Identity: Sendable {
        /// Its phones' E.164 forms, emails and `service` U+001F `handle`s,
        /// as the queries above compare them (SQL's `lower`, ASCII only).
        fileprivate var keys: [String] = []
        /// Its name key; nil without a name.
        fileprivate var name: Data?

        package init(_ draft: ContactDraft, _ derived: DerivedFields) {
            keys = derived.phonesNormalized.filter { $0.first == "+" }.map { "p" + $0 }
                + draft.emails.map { "e" + Self.lower($0.value) }
                + draft.messengers.map { "m" + Self.lower($0.service + "\u{1F}" + $0.handle) }
            name = DuplicateKeys.name(derived.firstNameKey, derived.lastNameKey)
        }

        fileprivate static func lower(_ text: String) -> String {
            String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
    }

    /// For each identity, the stored contact of `book` that `duplicates`
    /// would call the same person for certain (one sharing a key, whose
    /// name does not differ), the first in the default order; nil where
    /// none is. The child tables are read once for all, whatever their
    /// count.
    package static func certainMatches(of identities: [Identity], inBook book: BookID, _ db: Database) throws
        -> [(pk: Int64, id: String)?]
    {
        let wanted = Set(identities.flatMap(\.keys))
        guard !wanted.isEmpty else { return identities.map { _ in nil } }
        func json(_ kind: Character) -> String {
            JSONText.array(wanted.filter { $0.first == kind }.map { String($0.dropFirst()) })
        }
        var holders: [String: [Int64]] = [:]
        try db.forEachRow("""
            SELECT 'p' || normalized, contactPk FROM phone WHERE normalized IN (SELECT value FROM json_each(?1))
            UNION ALL SELECT 'e' || lower(value), contactPk FROM email WHERE lower(value) IN (SELECT value FROM json_each(?2))
            UNION ALL SELECT 'm' || lower(service) || char(31) || lower(handle), contactPk FROM messenger
                WHERE lower(service) || char(31) || lower(handle) IN (SELECT value FROM json_each(?3))
            """, [json("p"), json("e"), json("m")]) { holders[$0.text(0), default: []].append($0.int64(1)) }
        var ordered: [(pk: Int64, id: String, name: Data?)] = []
        try db.forEachRow("""
            SELECT pk, id, firstNameKey, lastNameKey FROM contact
            WHERE bookId = ? AND pk IN (SELECT value FROM json_each(?)) ORDER BY sortIndex, sortKey, id
            """, [book, keys(Array(Set(holders.values.joined())))]) { row in
            ordered.append((row.int64(0), row.text(1), name(row.optionalBlob(2), row.optionalBlob(3))))
        }
        return identities.map { identity in
            let sharing = Set(identity.keys.flatMap { holders[$0] ?? [] })
            return ordered.first { stored in
                sharing.contains(stored.pk) && (stored.name == nil || identity.name == nil || stored.name == identity.name)
            }.map { ($0.pk, $0.id) }
        }
    }

    /// A name key as ``nameKey`` makes it in SQL: the two keys, the smaller
    /// first, with a 0x01 between; nil for no name.
    private static func name(_ first: Data?, _ last: Data?) -> Data? {
        guard first != nil || last != nil else { return nil }
        let (a, b) = (first ?? Data(), last ?? Data())
        let (low, high) = b.lexicographicallyPrecedes(a) ? (b, a) : (a, b)
        return low + Data([1]) + high
    }
}
