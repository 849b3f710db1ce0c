import Foundation
import GRDB

extension ContactStore {
    // MARK: - Adding

    /// Validates `draft`, computes its derived fields and stores it with its
    /// children in one transaction.
    ///
    /// - returns: the stored contact.
    /// - throws: ``ContactsDBError/invalidContact(field:reason:)`` or
    ///   ``ContactsDBError/duplicateContactID(field:id:)``; nothing is written.
    @discardableResult
    public func add(_ draft: ContactDraft) throws -> Contact {
        try add([draft])[0]
    }

    /// Adds every draft, or none of them: one transaction for all.
    /// Errors name the failing draft by its position (`contacts[3].age`).
    @discardableResult
    public func add(_ drafts: [ContactDraft]) throws -> [Contact] {
        let ids = try write { db in
            let now = Timestamp.string(from: Date())
            return try drafts.enumerated().map { index, draft in
                let path = drafts.count == 1 ? "" : "contacts[\(index)]"
                return try ContactWriter.insert(try ContactValidator.validated(draft, at: path), at: path, now: now, db)
            }
        }
        return try contacts(ids: ids)
    }

    // MARK: - Updating

    /// Applies `change` to the contact's draft and stores the result in one
    /// transaction: the fields `change` sets replace the stored ones, and a
    /// list it sets (phones, emails, …) replaces the stored list whole.
    ///
    /// ```swift
    /// try store.update(id: id) { $0.phones = [Phone(value: "+7 912 345-67-89")] }
    /// ```
    ///
    /// - throws: ``ContactsDBError/contactsNotFound(ids:)`` or a validation
    ///   error; nothing is written.
    @discardableResult
    public func update(id: String, _ change: (inout ContactDraft) throws -> Void) throws -> Contact {
        try write { db in
            guard let current = try ContactReader.contacts(ids: [id], db).first else {
                throw ContactsDBError.contactsNotFound(ids: [id])
            }
            var draft = current.draft
            try change(&draft)
            if let newID = draft.id, newID != id {
                throw ContactsDBError.invalidContact(field: "id", reason: "an id cannot be changed; it stays \"\(id)\".")
            }
            draft.id = id
            try ContactWriter.replace(
                try ContactValidator.validated(draft), createdAt: current.createdAt, updatedAt: Date(), db)
        }
        return try contacts(ids: [id])[0]
    }

    // MARK: - Deleting

    /// Deletes the contacts and their children in one transaction. When any
    /// id is unknown, nothing is deleted.
    public func delete(ids: [String]) throws {
        try write { db in
            let missing = try ContactReader.missingIDs(ids, db)
            guard missing.isEmpty else { throw ContactsDBError.contactsNotFound(ids: missing) }
            let statement = try db.cachedStatement(sql: "DELETE FROM contact WHERE id = ?")
            for id in Set(ids) { try statement.execute(arguments: [id]) }
        }
    }
}

/// The SQL that writes one validated contact and its children.
enum ContactWriter {
    /// Inserts a validated draft; returns its id.
    static func insert(_ draft: ContactDraft, at path: String, now: String, _ db: Database) throws -> String {
        let id = draft.id ?? UUID().uuidString.lowercased()
        do {
            try writeContactRow(id: id, draft, createdAt: now, updatedAt: now, replacing: false, db)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
            throw ContactsDBError.duplicateContactID(field: path.isEmpty ? "id" : "\(path).id", id: id)
        }
        try writeChildren(id: id, draft, db)
        return id
    }

    /// Replaces a stored contact's fields and children with a validated draft.
    static func replace(_ draft: ContactDraft, createdAt: Date, updatedAt: Date, _ db: Database) throws {
        let id = draft.id!
        for table in ["phone", "email", "address", "messenger", "nameWord"] {
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE contactId = ?").execute(arguments: [id])
        }
        try writeContactRow(
            id: id, draft, createdAt: Timestamp.string(from: createdAt),
            updatedAt: Timestamp.string(from: updatedAt), replacing: true, db)
        try writeChildren(id: id, draft, db)
    }

    // MARK: - Non public

    private static let contactColumns = [
        "firstName", "lastName", "company", "age", "displayName", "sortName", "sectionKey",
        "sortIndex", "sortKey", "firstNameKey", "lastNameKey", "companyKey", "companyFolded",
        "attributes", "createdAt", "updatedAt",
    ]
    private static let insertSQL = """
        INSERT INTO contact (\(contactColumns.joined(separator: ", ")), id)
        VALUES (\(Array(repeating: "?", count: contactColumns.count + 1).joined(separator: ", ")))
        """
    private static let updateSQL = """
        UPDATE contact SET \(contactColumns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?
        """

    private static func writeContactRow(
        id: String, _ draft: ContactDraft, createdAt: String, updatedAt: String, replacing: Bool, _ db: Database
    ) throws {
        let derived = DerivedFields(draft)
        try db.cachedStatement(sql: replacing ? updateSQL : insertSQL).execute(arguments: [
            draft.firstName, draft.lastName, draft.company, draft.age, derived.displayName,
            derived.sortName, derived.sectionKey, derived.sortIndex, derived.sortKey,
            derived.firstNameKey, derived.lastNameKey, derived.companyKey, derived.companyFolded,
            derived.attributes.rawValue, createdAt, updatedAt, id,
        ])
        let word = try db.cachedStatement(sql: "INSERT INTO nameWord (word, contactId) VALUES (?, ?)")
        for key in derived.nameWords { try word.execute(arguments: [key, id]) }
    }

    private static func writeChildren(id: String, _ draft: ContactDraft, _ db: Database) throws {
        let phone = try db.cachedStatement(sql: """
            INSERT INTO phone (contactId, position, type, value, normalized) VALUES (?, ?, ?, ?, ?)
            """)
        for (position, item) in draft.phones.enumerated() {
            try phone.execute(arguments: [id, position, item.type, item.value, PhoneNumber(item.value).normalized])
        }
        let email = try db.cachedStatement(sql: """
            INSERT INTO email (contactId, position, type, value, valueFolded) VALUES (?, ?, ?, ?, ?)
            """)
        for (position, item) in draft.emails.enumerated() {
            try email.execute(arguments: [id, position, item.type, item.value, Collation.fold(item.value)])
        }
        let address = try db.cachedStatement(sql: """
            INSERT INTO address (contactId, position, type, street1, street2, city, state, zipcode,
                country, cityFolded, countryFolded)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (position, item) in draft.addresses.enumerated() {
            try address.execute(arguments: [
                id, position, item.type, item.street1, item.street2, item.city, item.state, item.zipcode,
                item.country, Collation.fold(item.city), Collation.fold(item.country),
            ])
        }
        let messenger = try db.cachedStatement(sql: """
            INSERT INTO messenger (contactId, position, service, handle) VALUES (?, ?, ?, ?)
            """)
        for (position, item) in draft.messengers.enumerated() {
            try messenger.execute(arguments: [id, position, item.service, item.handle])
        }
    }
}
