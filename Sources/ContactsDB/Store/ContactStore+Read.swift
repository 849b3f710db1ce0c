import Foundation
import GRDB

extension ContactStore {
    /// The contact with this id and all its children, or nil.
    public func contact(id: String) throws -> Contact? {
        try read { db in try ContactReader.contacts(ids: [id], db).first }
    }

    /// The contacts with these ids, in the order given; unknown ids are
    /// skipped.
    public func contacts(ids: [String]) throws -> [Contact] {
        try read { db in try ContactReader.contacts(ids: ids, db) }
    }
}

/// Reads contacts with their children in a fixed number of statements:
/// one for the contacts, one per child table.
enum ContactReader {
    static let contactColumns = """
        contact.id, contact.firstName, contact.lastName, contact.company, contact.age,
        contact.displayName, contact.sortName, contact.sectionKey, contact.sortIndex,
        contact.createdAt, contact.updatedAt
        """

    static func contacts(ids: [String], _ db: Database) throws -> [Contact] {
        guard !ids.isEmpty else { return [] }
        var byID: [String: Contact] = [:]
        for chunk in ids.chunked(into: 500) {
            let sql = "SELECT \(contactColumns) FROM contact WHERE id IN (\(placeholders(chunk.count)))"
            let rows = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                let contact = makeContact(row)
                byID[contact.id] = contact
            }
        }
        return try withChildren(ids.compactMap { byID[$0] }, db)
    }

    /// The ids among `ids` that name no contact, in the order given.
    static func missingIDs(_ ids: [String], _ db: Database) throws -> [String] {
        var found: Set<String> = []
        for chunk in ids.chunked(into: 500) {
            let sql = "SELECT id FROM contact WHERE id IN (\(placeholders(chunk.count)))"
            found.formUnion(try String.fetchAll(db, sql: sql, arguments: StatementArguments(chunk)))
        }
        var seen: Set<String> = []
        return ids.filter { !found.contains($0) && seen.insert($0).inserted }
    }

    /// A contact without its children, from a row of `contactColumns`.
    static func makeContact(_ row: Row) -> Contact {
        Contact(
            id: row[0], firstName: row[1], lastName: row[2], company: row[3], age: row[4],
            phones: [], emails: [], addresses: [], messengers: [],
            displayName: row[5], sortName: row[6], sectionKey: row[7], sortIndex: row[8],
            createdAt: Timestamp.date(from: row[9]) ?? Date(timeIntervalSince1970: 0),
            updatedAt: Timestamp.date(from: row[10]) ?? Date(timeIntervalSince1970: 0))
    }

    /// Fills in the children of `contacts`, one statement per child table.
    static func withChildren(_ contacts: [Contact], _ db: Database) throws -> [Contact] {
        guard !contacts.isEmpty else { return [] }
        var result = contacts
        var index: [String: Int] = [:]
        for (offset, contact) in contacts.enumerated() { index[contact.id] = offset }
        for chunk in contacts.map(\.id).chunked(into: 500) {
            let arguments = StatementArguments(chunk)
            let inList = placeholders(chunk.count)
            func each(_ sql: String, _ body: (Int, Row) -> Void) throws {
                let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                while let row = try rows.next() {
                    if let offset = index[row[0]] { body(offset, row) }
                }
            }
            try each("SELECT contactId, type, value FROM phone WHERE contactId IN (\(inList)) ORDER BY contactId, position") {
                result[$0].phones.append(Phone(type: $1[1], value: $1[2]))
            }
            try each("SELECT contactId, type, value FROM email WHERE contactId IN (\(inList)) ORDER BY contactId, position") {
                result[$0].emails.append(Email(type: $1[1], value: $1[2]))
            }
            try each("""
                SELECT contactId, type, street1, street2, city, state, zipcode, country
                FROM address WHERE contactId IN (\(inList)) ORDER BY contactId, position
                """) {
                result[$0].addresses.append(Address(
                    type: $1[1], street1: $1[2], street2: $1[3], city: $1[4], state: $1[5],
                    zipcode: $1[6], country: $1[7]))
            }
            try each("SELECT contactId, service, handle FROM messenger WHERE contactId IN (\(inList)) ORDER BY contactId, position") {
                result[$0].messengers.append(Messenger(service: $1[1], handle: $1[2]))
            }
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
