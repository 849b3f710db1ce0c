import Foundation
import GRDB

/// Writes validated contacts and their children, with statements prepared
/// once for a whole write transaction.
package final class ContactWriter {
    private let insertContact, updateContact, insertPhone, insertEmail, insertAddress: SQLiteStatement
    private let insertMessenger, insertWord, insertDate, insertURL, insertRelation, insertProfile, insertExtra: SQLiteStatement
    private let deleteChildren: [SQLiteStatement]
    private let favorites: FavoriteList
    private let groups: GroupWriter
    private let photos: PhotoWriter
    /// The database's default phone regions, read once per write.
    package let regions: PhoneRegions
    /// This write transaction's revision (``ChangeLog/write(_:_:)``),
    /// written with each row rather than by a trigger, which would write
    /// every row of an import twice.
    private let revision: Int
    /// Whether a group card may be waiting for a contact still to come
    /// (`groupPendingMember`): read once, set by each group card written, so
    /// that an insert looks only then.
    private var mayJoinPendingGroups: Bool

    private static let contactColumns = [
        "firstName", "lastName", "company", "age", "displayName", "sortName", "sectionKey",
        "sortIndex", "sortKey", "firstNameKey", "lastNameKey", "companyKey", "companyFolded",
        "attributes", "nameWords", "createdAt", "updatedAt", "revision", "kind", "formattedName",
    ] + ContactDetailColumns.text.map(\.key) + ["searchWords"]

    package init(_ db: Database) throws {
        let columns = Self.contactColumns
        // A favorite takes the last place as it is inserted, not by an
        // update after, which would write its row twice.
        insertContact = try SQLiteStatement(db, """
            INSERT INTO contact (\(columns.joined(separator: ", ")), id, addedRevision, favoritePosition)
            VALUES (\(Array(repeating: "?", count: columns.count + 2).joined(separator: ", ")),
                    CASE WHEN ? THEN (\(FavoriteList.nextPositionSQL)) END)
            """)
        updateContact = try SQLiteStatement(db, """
            UPDATE contact SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE pk = ?
            """)
        func insert(into table: String, _ columns: String, count: Int) throws -> SQLiteStatement {
            try SQLiteStatement(db, """
                INSERT INTO \(table) (contactPk, position, \(columns))
                VALUES (?, ?\(String(repeating: ", ?", count: count)))
                """)
        }
        insertPhone = try insert(into: "phone", "type, value, normalized, preferred, parameters, display", count: 6)
        insertEmail = try insert(into: "email", "type, value, valueFolded, preferred, parameters", count: 5)
        insertAddress = try insert(into: "address", """
            type, street1, street2, city, state, zipcode, country, cityFolded, countryFolded, poBox, preferred, parameters
            """, count: 12)
        insertMessenger = try insert(into: "messenger", "service, handle, parameters", count: 3)
        insertDate = try insert(into: "contactDate", "type, value, parameters", count: 3)
        insertURL = try insert(into: "url", "type, value, parameters", count: 3)
        insertRelation = try insert(into: "relation", "type, name", count: 2)
        insertProfile = try insert(into: "socialProfile", "service, handle, url", count: 3)
        insertExtra = try insert(into: "extraProperty", "line", count: 1)
        insertWord = try SQLiteStatement(db, "INSERT INTO nameWord (word, contactPk) VALUES (?, ?)")
        deleteChildren = try ContactDetailColumns.childTables.map {
            try SQLiteStatement(db, "DELETE FROM \($0) WHERE contactPk = ?")
        }
        favorites = FavoriteList(db)
        groups = try GroupWriter(db)
        photos = try PhotoWriter(db)
        regions = try Settings.phoneRegions(db)
        revision = try ChangeLog.revision(db)
        mayJoinPendingGroups = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM groupPendingMember)") ?? false
    }

    /// Inserts a validated draft; returns its id.
    package func insert(_ draft: ContactDraft, at path: String, now: String) throws -> String {
        try insert(draft, DerivedFields(draft, regions: regions), at: path, now: now)
    }

    /// Inserts a validated draft whose fields were derived beforehand.
    package func insert(_ draft: ContactDraft, _ derived: DerivedFields, at path: String, now: String) throws -> String {
        try insert([NewContact(draft: draft, derived: derived, path: path)][...], now: now)[0].get()
    }

    /// A validated draft with its derived fields, and where it was read.
    package struct NewContact: Sendable {
        package var draft: ContactDraft
        package var derived: DerivedFields
        package var path: String

        package init(draft: ContactDraft, derived: DerivedFields, path: String) {
            self.draft = draft
            self.derived = derived
            self.path = path
        }
    }

    /// Inserts validated drafts whose fields were derived beforehand, the
    /// contacts' rows first and then their children table by table, so
    /// that each table's newest pages stay in the processor's caches;
    /// returns each one's id in order.
    ///
    /// - parameter skippingTakenIDs: a contact whose id is taken is left
    ///   out with its error in its place, instead of failing the write.
    package func insert(
        _ contacts: ArraySlice<NewContact>, now: String, skippingTakenIDs: Bool = false
    ) throws -> [Result<String, ContactsDBError>] {
        var results: [Result<String, ContactsDBError>] = []
        results.reserveCapacity(contacts.count)
        var written: [(pk: Int64, contact: Int)] = []
        written.reserveCapacity(contacts.count)
        // Read in place: each copy of a contact out of the slice would
        // retain every one of its texts and lists.
        try contacts.withUnsafeBufferPointer { contacts in
            for index in contacts.indices {
                let id = contacts[index].draft.id ?? UUID().uuidString.lowercased()
                do {
                    var values = contactValues(contacts[index].draft, contacts[index].derived, createdAt: now, updatedAt: now)
                    values += [.text(id), .int(revision), .bool(contacts[index].draft.isFavorite)]
                    try insertContact.execute(values)
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                    let path = contacts[index].path
                    let taken = ContactsDBError.duplicateContactID(field: path.isEmpty ? "id" : "\(path).id", id: id)
                    guard skippingTakenIDs else { throw taken }
                    results.append(.failure(taken))
                    continue
                }
                let pk = insertContact.lastInsertedRowID
                written.append((pk, index))
                if contacts[index].draft.photo != nil {
                    try photos.write(pk: pk, contacts[index].draft.photo, contacts[index].derived.photo)
                }
                if mayJoinPendingGroups { try groups.joinPendingGroups(pk, id: id) }
                results.append(.success(id))
            }
            try writeChildren(written, of: contacts)
        }
        return results
    }

    /// Replaces a stored contact's fields and children with a validated draft.
    ///
    /// - parameter keepingPhoto: true leaves the stored photo and its
    ///   thumbnail as they are, for rewrites of derived fields that read the
    ///   draft from the database.
    package func replace(pk: Int64, _ draft: ContactDraft, createdAt: Date, updatedAt: Date, keepingPhoto: Bool = false) throws {
        for statement in deleteChildren { try statement.execute(.int(Int(pk))) }
        let derived = DerivedFields(draft, regions: regions, thumbnailing: !keepingPhoto)
        if !keepingPhoto { try photos.write(pk: pk, draft.photo, derived.photo) }
        try updateContact.execute(contactValues(
            draft, derived, createdAt: Timestamp.string(from: createdAt), updatedAt: Timestamp.string(from: updatedAt))
            + [.int(Int(pk))])
        try [NewContact(draft: draft, derived: derived, path: "")].withUnsafeBufferPointer {
            try writeChildren([(pk, 0)], of: $0)
        }
        try draft.isFavorite ? favorites.append(pk) : favorites.remove(pk)
    }

    /// Takes a group card in as its group (``GroupWriter/write(_:exactly:_:)``).
    package func write(_ card: GroupCard, exactly: Bool = false, _ db: Database) throws {
        try groups.write(card, exactly: exactly, db)
        if !card.members.isEmpty { mayJoinPendingGroups = true }
    }

    /// Deletes contacts by key; their children go with them.
    package static func delete(_ pks: Set<Int64>, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "DELETE FROM contact WHERE pk = ?")
        for pk in pks { try statement.execute(arguments: [pk]) }
    }

    // MARK: - Non public

    private func contactValues(
        _ draft: ContactDraft, _ derived: DerivedFields, createdAt: String, updatedAt: String
    ) -> [SQLiteStatement.Value] {
        var values: [SQLiteStatement.Value] = [
            .text(draft.firstName), .text(draft.lastName), .text(draft.company), .int(draft.age),
            .text(derived.displayName), .text(derived.sortName), .text(derived.sectionKey), .int(derived.sortIndex),
            .blob(derived.sortKey), .blob(derived.firstNameKey), .blob(derived.lastNameKey), .blob(derived.companyKey),
            .text(derived.companyFolded), .int(derived.attributes.rawValue), .text(derived.nameWordsText),
            .text(createdAt), .text(updatedAt), .int(revision), .text(draft.kind.rawValue), .text(derived.formattedName),
        ]
        // One array for the row and what the insert adds after it.
        values.reserveCapacity(Self.contactColumns.count + 3)
        var details = draft.details
        ContactDetailColumns.forEachText(of: &details) { _, text in values.append(.text(text)) }
        values.append(.text(derived.searchWords))
        return values
    }

    /// Writes the children of `contacts` whose rows are `rows`, table by
    /// table. The name words go in as they come: sorting a batch's words
    /// first saved SQLite a tenth of its time for them and cost more in
    /// comparisons than that.
    private func writeChildren(_ rows: [(pk: Int64, contact: Int)], of contacts: UnsafeBufferPointer<NewContact>) throws {
        for row in rows {
            for word in contacts[row.contact].derived.nameWords { try insertWord.execute(.blob(word), .int(Int(row.pk))) }
        }
        for row in rows {
            for (position, phone) in contacts[row.contact].draft.phones.enumerated() {
                try insertPhone.execute(
                    .int(Int(row.pk)), .int(position), .text(phone.type), .text(phone.value),
                    .text(contacts[row.contact].derived.phonesNormalized[position]), .bool(phone.preferred),
                    .text(phone.parameters), .text(contacts[row.contact].derived.phonesDisplayed[position]))
            }
        }
        for row in rows {
            let emails = zip(contacts[row.contact].draft.emails, contacts[row.contact].derived.emailsFolded)
            for (position, (email, folded)) in emails.enumerated() {
                try insertEmail.execute(
                    .int(Int(row.pk)), .int(position), .text(email.type), .text(email.value), .text(folded),
                    .bool(email.preferred), .text(email.parameters))
            }
        }
        for row in rows {
            let addresses = zip(contacts[row.contact].draft.addresses, contacts[row.contact].derived.addressesFolded)
            for (position, (address, folded)) in addresses.enumerated() {
                try insertAddress.execute(
                    .int(Int(row.pk)), .int(position), .text(address.type), .text(address.street1), .text(address.street2),
                    .text(address.city), .text(address.state), .text(address.zipcode), .text(address.country),
                    .text(folded.city), .text(folded.country), .text(address.poBox), .bool(address.preferred),
                    .text(address.parameters))
            }
        }
        for row in rows {
            for (position, messenger) in contacts[row.contact].draft.messengers.enumerated() {
                try insertMessenger.execute(.int(Int(row.pk)), .int(position), .text(messenger.service),
                                            .text(messenger.handle), .text(messenger.parameters))
            }
        }
        for row in rows {
            for (position, date) in contacts[row.contact].draft.details.dates.enumerated() {
                try insertDate.execute(.int(Int(row.pk)), .int(position), .text(date.type), .text(date.value), .text(date.parameters))
            }
        }
        for row in rows {
            for (position, url) in contacts[row.contact].draft.details.urls.enumerated() {
                try insertURL.execute(.int(Int(row.pk)), .int(position), .text(url.type), .text(url.value), .text(url.parameters))
            }
        }
        for row in rows {
            for (position, relation) in contacts[row.contact].draft.details.relations.enumerated() {
                try insertRelation.execute(.int(Int(row.pk)), .int(position), .text(relation.type), .text(relation.name))
            }
        }
        for row in rows {
            for (position, profile) in contacts[row.contact].draft.details.socialProfiles.enumerated() {
                try insertProfile.execute(
                    .int(Int(row.pk)), .int(position), .text(profile.service), .text(profile.handle), .text(profile.url))
            }
        }
        for row in rows {
            for (position, line) in contacts[row.contact].draft.details.extra.enumerated() {
                try insertExtra.execute(.int(Int(row.pk)), .int(position), .text(line))
            }
        }
        for row in rows {
            for name in contacts[row.contact].draft.groups { try groups.add(row.pk, toGroupNamed: name) }
        }
    }
}
