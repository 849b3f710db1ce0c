import Foundation
import GRDB

/// The keys duplicates are found by (SPEC §Duplicates), each read from the
/// stored derived columns and grouped by SQLite: a contact is compared
/// only with those that share one of its keys.
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
            SELECT group_concat(DISTINCT pk) FROM contact JOIN address ON address.contactPk = contact.pk
            WHERE address.cityFolded <> '' AND \(hasName)
            GROUP BY \(nameKey), address.cityFolded HAVING count(DISTINCT pk) > 1
            """, identifier: false) { _ in ["name", "city"] }
        return result
    }

    /// Each contact's name key, as one blob (the two keys with a 0x01
    /// between: sort keys hold no 0x01); nil for a contact without a name.
    package static func names(of pks: [Int64], _ db: Database) throws -> [Int64: Data] {
        var names: [Int64: Data] = [:]
        try db.forEachRow("""
            SELECT pk, \(nameKey) FROM contact WHERE \(hasName) AND pk IN (SELECT value FROM json_each(?))
            """, [keys(pks)]) { row in
            names[row.int64(0)] = row.blob(1) + Data([1]) + row.blob(2)
        }
        return names
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
}
