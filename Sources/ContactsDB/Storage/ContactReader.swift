import Foundation
import GRDB

/// A contact row as read, with its key and the bit set of what it has.
package struct StoredContact {
    package var pk: Int64
    package var attributes: ContactAttributes
    package var contact: Contact
    /// The id of its book.
    package var book = BookID(rawValue: 0)
}

/// Reads contacts with their children in a fixed number of statements:
/// one for the contacts, one per child table.
package enum ContactReader {
    /// The columns `fetch` reads.
    package static let contactColumns = """
        contact.pk, contact.id, contact.firstName, contact.lastName, contact.company, contact.age,
        contact.displayName, contact.sortName, contact.sectionKey, contact.sortIndex,
        contact.createdAt, contact.updatedAt, contact.favoritePosition IS NOT NULL, contact.attributes,
        contact.revision, contact.kind, contact.formattedName,
        \(ContactDetailColumns.text.map { "contact." + $0.key }.joined(separator: ", ")),
        contact.bookId, contact.uid
        """

    /// The column of the first detail text, after `kind` and `formattedName`.
    private static let firstDetailColumn: Int32 = 17
    /// The book's column, after the detail texts, then the uid's. Books'
    /// names are read once per statement: a column of them would add a
    /// lookup per row to every page's plan.
    private static let bookColumn = firstDetailColumn + Int32(ContactDetailColumns.text.count)

    /// The column that selects only the id.
    package static let idColumn = "contact.id"

    package static func contacts(ids: [String], _ db: Database) throws -> [Contact] {
        try withChildren(try stored(ids: ids, db), db)
    }

    /// The contacts with these ids, without children, in the order given;
    /// unknown ids are skipped.
    package static func stored(ids: [String], _ db: Database) throws -> [StoredContact] {
        var byID: [String: StoredContact] = [:]
        let sql = "SELECT \(contactColumns) FROM contact WHERE id IN (SELECT value FROM json_each(?))"
        for stored in try fetch(sql, [JSONText.array(ids)], db) { byID[stored.contact.id] = stored }
        return ids.compactMap { byID[$0] }
    }

    /// The contacts with these keys, without children, in no set order.
    package static func stored(pks: [Int64], _ db: Database) throws -> [StoredContact] {
        try fetch("SELECT \(contactColumns) FROM contact WHERE pk IN (SELECT value FROM json_each(?))",
                  ["[" + pks.map(String.init).joined(separator: ",") + "]"], db)
    }

    /// The contacts of `book` whose cards have these UIDs (their uid, else
    /// their id), without children.
    package static func stored(cardUIDs uids: [String], inBook book: BookID, _ db: Database) throws -> [StoredContact] {
        try fetch("""
            SELECT \(contactColumns) FROM contact
            WHERE bookId = ?2 AND (uid IN (SELECT value FROM json_each(?1))
                                   OR (uid IS NULL AND id IN (SELECT value FROM json_each(?1))))
            """, [JSONText.array(uids), book], db)
    }

    /// The rows of a statement that selects `contactColumns`, in order.
    package static func fetch(_ sql: String, _ arguments: StatementArguments, _ db: Database) throws -> [StoredContact] {
        var result: [StoredContact] = []
        let books = try BookRecords.names(db)
        try db.forEachRow(sql, arguments) { row in
            var details = ContactDetails()
            details.kind = ContactKind(rawValue: row.text(15)) ?? .individual
            details.formattedName = row.optionalText(16)
            ContactDetailColumns.forEachText(of: &details) { index, text in
                text = row.optionalText(firstDetailColumn + Int32(index))
            }
            result.append(StoredContact(pk: row.int64(0), attributes: ContactAttributes(rawValue: row.int(13)), contact: Contact(
                id: row.text(1), firstName: row.optionalText(2), lastName: row.optionalText(3),
                company: row.optionalText(4), age: row.optionalInt(5),
                phones: [], emails: [], addresses: [], messengers: [], isFavorite: row.bool(12), groups: [],
                details: details,
                displayName: row.text(6), sortName: row.text(7), sectionKey: row.text(8), sortIndex: row.int(9),
                createdAt: Timestamp.date(from: row.text(10)) ?? Date(timeIntervalSince1970: 0),
                updatedAt: Timestamp.date(from: row.text(11)) ?? Date(timeIntervalSince1970: 0),
                revision: row.int(14), hasPhoto: ContactAttributes(rawValue: row.int(13)).contains(.photo),
                book: books[row.bookID(bookColumn)] ?? "", uid: row.optionalText(bookColumn + 1)), book: row.bookID(bookColumn)))
        }
        return result
    }

    /// True when the database has a contact table with a row in it.
    package static func holdsContacts(_ db: Database) throws -> Bool {
        try db.tableExists("contact") && (try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM contact)") ?? false)
    }

    /// The favorites without children, in the order the user set.
    package static func favorites(_ db: Database) throws -> [StoredContact] {
        try fetch("""
            SELECT \(contactColumns) FROM contact WHERE favoritePosition IS NOT NULL ORDER BY favoritePosition
            """, [], db)
    }

    /// The most entries of each list any one contact has.
    package static func maxChildCounts(_ db: Database) throws -> ChildCounts {
        func most(_ table: String) throws -> Int {
            try Int.fetchOne(db, sql: "SELECT coalesce(max(position) + 1, 0) FROM \(table)") ?? 0
        }
        var counts = ChildCounts(phones: try most("phone"), emails: try most("email"),
                                 addresses: try most("address"), messengers: try most("messenger"))
        for list in CardList.all { counts.cardLists[list.key] = try most(list.table) }
        return counts
    }

    /// The keys of the contacts with these ids, in the order given.
    ///
    /// - throws: `.contactsNotFound` naming every unknown id.
    package static func pks(ids: [String], _ db: Database) throws -> [Int64] {
        var byID: [String: Int64] = [:]
        try db.forEachRow("SELECT id, pk FROM contact WHERE id IN (SELECT value FROM json_each(?))", [JSONText.array(ids)]) {
            byID[$0.text(0)] = $0.int64(1)
        }
        var seen: Set<String> = []
        let missing = ids.filter { byID[$0] == nil && seen.insert($0).inserted }
        guard missing.isEmpty else { throw ContactsDBError.contactsNotFound(ids: missing) }
        return ids.compactMap { byID[$0] }
    }

    /// The keys of the contacts with those of these ids that exist.
    package static func pks(existingIDs ids: [String], _ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(sql: "SELECT pk FROM contact WHERE id IN (SELECT value FROM json_each(?))"),
                           arguments: [JSONText.array(ids)])
    }

    /// The keys of every contact of a book.
    package static func pks(inBook book: BookID, _ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(sql: "SELECT pk FROM contact WHERE bookId = ?"), arguments: [book])
    }

    /// The statement that reads `columns` of a child table for the contacts
    /// whose keys are in the JSON array bound to it, in their order.
    package static func childrenSQL(_ columns: String, from table: String) -> String {
        """
        SELECT contactPk, \(columns) FROM \(table)
        WHERE contactPk IN (SELECT value FROM json_each(?)) ORDER BY contactPk, position
        """
    }

    /// The contacts with their children, one statement per child table.
    ///
    /// - parameter trustingAttributes: true skips looking up the kinds of
    ///   children a contact's attributes say it lacks, as queries do;
    ///   writes and repairs read every table, whatever the attributes say.
    /// - parameter readingPhotos: false leaves `photo` nil (lists read no
    ///   image bytes; `hasPhoto` says who has one).
    package static func withChildren(
        _ stored: consuming [StoredContact], trustingAttributes: Bool = false, readingPhotos: Bool = true, _ db: Database
    ) throws -> [Contact] {
        // The contacts moved out, never copied (a copy of a stored contact
        // retains every field of it), and the rows never iterated by value.
        let pks = stored.map(\.pk), attributes = stored.map(\.attributes)
        var result = Array.moving(&stored) { _, row in row.contact }
        guard !result.isEmpty else { return [] }
        var index: [Int64: Int] = [:]
        for (offset, pk) in pks.enumerated() { index[pk] = offset }
        // The keys, as a JSON array, of the contacts that may hold `kinds`
        // of children (nil: whatever they hold); each key's digits are
        // written once for the dozen tables.
        let digits = pks.map(String.init)
        func keys(mayHolding kinds: ContactAttributes?) -> String? {
            var array = "["
            for (contactAttributes, pk) in zip(attributes, digits)
            where kinds.map({ !contactAttributes.isDisjoint(with: $0) }) ?? true {
                if array.utf8.count > 1 { array += "," }
                array += pk
            }
            return array.utf8.count > 1 ? array + "]" : nil
        }
        func each(_ sql: String, holding kinds: ContactAttributes?, _ body: (Int, RawRow) -> Void) throws {
            guard let keys = keys(mayHolding: trustingAttributes ? kinds : nil) else { return }
            try db.forEachRow(sql, [keys]) { row in
                if let offset = index[row.int64(0)] { body(offset, row) }
            }
        }
        try each(childrenSQL("type, value, normalized, preferred, parameters, display", from: "phone"), holding: .phone) {
            var phone = Phone(type: $1.text(1), value: $1.text(2), preferred: $1.bool(4), parameters: $1.optionalText(5))
            let normalized = $1.text(3)
            phone.e164 = normalized.hasPrefix("+") ? normalized : nil
            phone.display = $1.optionalText(6)
            result[$0].phones.append(phone)
        }
        try each(childrenSQL("type, value, preferred, parameters", from: "email"), holding: .email) {
            result[$0].emails.append(Email(type: $1.text(1), value: $1.text(2), preferred: $1.bool(3), parameters: $1.optionalText(4)))
        }
        try each(childrenSQL("type, street1, street2, city, state, zipcode, country, poBox, preferred, parameters", from: "address"),
                 holding: .address) {
            result[$0].addresses.append(Address(
                type: $1.text(1), street1: $1.text(2), street2: $1.text(3), city: $1.text(4), state: $1.text(5),
                zipcode: $1.text(6), country: $1.text(7), poBox: $1.text(8), preferred: $1.bool(9),
                parameters: $1.optionalText(10)))
        }
        // Messengers of services beyond the five leave no attribute bit.
        try each(childrenSQL("service, handle, parameters", from: "messenger"), holding: nil) {
            result[$0].messengers.append(Messenger(service: $1.text(1), handle: $1.text(2), parameters: $1.optionalText(3)))
        }
        for list in CardList.all {
            try each(childrenSQL(list.columns.map(\.name).joined(separator: ", "), from: list.table), holding: .cardLists) {
                offset, row in list.append(to: &result[offset].details) { row.optionalText(Int32($0) + 1) }
            }
        }
        if readingPhotos {
            let originals = try PhotoReader.originals(pks: pks, db)
            for (pk, photo) in originals { if let offset = index[pk] { result[offset].photo = photo } }
        }
        // Memberships from their covering index, then the few group names
        // once, rather than a join per membership.
        var memberships: [(offset: Int, groupPk: Int64)] = []
        try each("SELECT contactPk, groupPk FROM groupMember WHERE contactPk IN (SELECT value FROM json_each(?))",
                 holding: nil) { memberships.append(($0, $1.int64(1))) }
        if !memberships.isEmpty {
            var names: [Int64: String] = [:]
            try db.forEachRow("SELECT pk, name FROM contactGroup", []) { names[$0.int64(0)] = $0.text(1) }
            for membership in memberships {
                if let name = names[membership.groupPk] { result[membership.offset].groups.append(name) }
            }
        }
        for offset in result.indices where result[offset].groups.count > 1 {
            result[offset].groups.sort(by: Collation.precedes)
        }
        return result
    }
}

extension Array {
    /// The array in slices of `size` elements, the last one shorter.
    package func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
