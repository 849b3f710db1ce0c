import Foundation
import GRDB

extension ContactStore {
    /// The contact with this id and all its children, or nil.
    public func contact(id: String) throws -> Contact? {
        try read { db in try ContactReader.contacts(ids: [id], db).first }
    }

    /// The most phones, emails, addresses and messengers any one contact
    /// has, for writers that give each its own columns.
    public func maxChildCounts() throws -> ChildCounts {
        try read { db in
            func most(_ table: String) throws -> Int {
                try Int.fetchOne(db, sql: "SELECT coalesce(max(position) + 1, 0) FROM \(table)") ?? 0
            }
            return ChildCounts(phones: try most("phone"), emails: try most("email"),
                               addresses: try most("address"), messengers: try most("messenger"))
        }
    }

    /// The contacts with these ids, in the order given; unknown ids are
    /// skipped.
    public func contacts(ids: [String]) throws -> [Contact] {
        try read { db in try ContactReader.contacts(ids: ids, db) }
    }
}

/// How many children of each kind, e.g. the most any contact has.
public struct ChildCounts: Hashable, Sendable {
    public var phones = 0, emails = 0, addresses = 0, messengers = 0

    public init(phones: Int = 0, emails: Int = 0, addresses: Int = 0, messengers: Int = 0) {
        self.phones = phones
        self.emails = emails
        self.addresses = addresses
        self.messengers = messengers
    }
}

/// Reads contacts with their children in a fixed number of statements:
/// one for the contacts, one per child table.
enum ContactReader {
    /// The columns `makeContact` reads, after `contact.pk`.
    static let contactColumns = """
        contact.pk, contact.id, contact.firstName, contact.lastName, contact.company, contact.age,
        contact.displayName, contact.sortName, contact.sectionKey, contact.sortIndex,
        contact.createdAt, contact.updatedAt, contact.favoritePosition IS NOT NULL
        """

    static func contacts(ids: [String], _ db: Database) throws -> [Contact] {
        try withChildren(try stored(ids: ids, db), db)
    }

    /// The contacts with these ids and their keys, without children, in the
    /// order given; unknown ids are skipped.
    static func stored(ids: [String], _ db: Database) throws -> [(pk: Int64, contact: Contact)] {
        var byID: [String: (pk: Int64, contact: Contact)] = [:]
        for chunk in ids.chunked(into: 500) {
            let sql = "SELECT \(contactColumns) FROM contact WHERE id IN (\(placeholders(chunk.count)))"
            for stored in try fetch(sql, StatementArguments(chunk), db) { byID[stored.contact.id] = stored }
        }
        return ids.compactMap { byID[$0] }
    }

    /// The rows of a statement that selects `contactColumns`, in order.
    static func fetch(_ sql: String, _ arguments: StatementArguments, _ db: Database) throws -> [(pk: Int64, contact: Contact)] {
        var result: [(pk: Int64, contact: Contact)] = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        while let row = try rows.next() {
            result.append((row[0], Contact(
                id: row[1], firstName: row[2], lastName: row[3], company: row[4], age: row[5],
                phones: [], emails: [], addresses: [], messengers: [], isFavorite: row[12], groups: [],
                displayName: row[6], sortName: row[7], sectionKey: row[8], sortIndex: row[9],
                createdAt: Timestamp.date(from: row[10]) ?? Date(timeIntervalSince1970: 0),
                updatedAt: Timestamp.date(from: row[11]) ?? Date(timeIntervalSince1970: 0))))
        }
        return result
    }

    /// The keys of the contacts with these ids, in the order given.
    ///
    /// - throws: `.contactsNotFound` naming every unknown id.
    static func pks(ids: [String], _ db: Database) throws -> [Int64] {
        let stored = try self.stored(ids: ids, db)
        let found = Set(stored.map(\.contact.id))
        var seen: Set<String> = []
        let missing = ids.filter { !found.contains($0) && seen.insert($0).inserted }
        guard missing.isEmpty else { throw ContactsDBError.contactsNotFound(ids: missing) }
        return stored.map(\.pk)
    }

    /// The contacts with their children, one statement per child table.
    static func withChildren(_ stored: [(pk: Int64, contact: Contact)], _ db: Database) throws -> [Contact] {
        var result = stored.map(\.contact)
        guard !result.isEmpty else { return [] }
        var index: [Int64: Int] = [:]
        for (offset, entry) in stored.enumerated() { index[entry.pk] = offset }
        for chunk in stored.map(\.pk).chunked(into: 500) {
            let arguments = StatementArguments(chunk)
            let inList = placeholders(chunk.count)
            func each(_ columns: String, from table: String, _ body: (Int, Row) -> Void) throws {
                let sql = "SELECT contactPk, \(columns) FROM \(table) WHERE contactPk IN (\(inList)) ORDER BY contactPk, position"
                let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
                while let row = try rows.next() {
                    if let offset = index[row[0]] { body(offset, row) }
                }
            }
            try each("type, value", from: "phone") {
                result[$0].phones.append(Phone(type: $1[1], value: $1[2]))
            }
            try each("type, value", from: "email") {
                result[$0].emails.append(Email(type: $1[1], value: $1[2]))
            }
            try each("type, street1, street2, city, state, zipcode, country", from: "address") {
                result[$0].addresses.append(Address(
                    type: $1[1], street1: $1[2], street2: $1[3], city: $1[4], state: $1[5],
                    zipcode: $1[6], country: $1[7]))
            }
            try each("service, handle", from: "messenger") {
                result[$0].messengers.append(Messenger(service: $1[1], handle: $1[2]))
            }
            let groups = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT groupMember.contactPk, contactGroup.name FROM groupMember
                JOIN contactGroup ON contactGroup.pk = groupMember.groupPk
                WHERE groupMember.contactPk IN (\(inList))
                """), arguments: arguments)
            while let row = try groups.next() {
                if let offset = index[row[0]] { result[offset].groups.append(row[1]) }
            }
        }
        for offset in result.indices where result[offset].groups.count > 1 {
            result[offset].groups.sort { Collation.compare($0, $1) < 0 }
        }
        return result
    }

    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

extension Array {
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
