import ContactsDB

/// The standard queries of `contactsdb bench` written by hand, as an app
/// would on the raw SQLite C API without this engine: the yardstick the
/// engine's own statements are measured against. Each reads what the
/// engine returns: a contact's columns as ``contactColumns`` names them,
/// and for Q9 every child table's.
enum BenchmarkSQL {
    static let contactColumns = """
        pk, id, firstName, lastName, company, age, displayName, sortName, sectionKey, sortIndex, createdAt, updatedAt,
        favoritePosition IS NOT NULL, attributes, revision, kind, formattedName, namePrefix, middleName, nameSuffix,
        phoneticFirstName, phoneticMiddleName, phoneticLastName, nickname, department, jobTitle, role, birthday, note
        """
    private static let defaultOrder = "ORDER BY sortIndex, sortKey, id LIMIT 50"
    private static let phoneAndEmail = ContactAttributes([.phone, .email]).rawValue
    private static let fourAttributes = ContactAttributes([.telegram, .whatsapp, .phone, .email]).rawValue

    static let page = "SELECT \(contactColumns) FROM contact \(defaultOrder)"
    /// One book's first page. Binds the book's name lower-cased.
    static let bookPage = """
        SELECT \(contactColumns) FROM contact WHERE bookId = (SELECT id FROM book WHERE nameKey = ?) \(defaultOrder)
        """
    static let phoneAndEmailByLastName = """
        SELECT \(contactColumns) FROM contact WHERE attributes & \(phoneAndEmail) = \(phoneAndEmail)
        ORDER BY lastNameKey IS NULL, lastNameKey, sortKey, id LIMIT 50
        """
    static let fourAttributesByFirstNameDescending = """
        SELECT \(contactColumns) FROM contact WHERE attributes & \(fourAttributes) = \(fourAttributes)
        ORDER BY firstNameKey IS NULL, firstNameKey DESC, sortKey, id LIMIT 50
        """
    static let fourAttributesCount =
        "SELECT sum(count) FROM attributeCount WHERE attributes & \(fourAttributes) = \(fourAttributes)"
    /// A name prefix of `keys` alternative keys (a Latin word and its
    /// form marked for the keys of Cyrillic names): binds a space and each
    /// folded key.
    static func namePrefix(keys: Int) -> String {
        "SELECT \(contactColumns) FROM contact WHERE \(either("instr(nameWords, ?) > 0", keys)) \(defaultOrder)"
    }
    /// A rare name prefix: its few contacts found in `nameWord`, then
    /// sorted. Binds each key and it followed by 0xFF.
    static func rareNamePrefix(keys: Int) -> String {
        let select = "SELECT contactPk FROM nameWord WHERE word >= ? AND word < ?"
        return """
            SELECT \(contactColumns) FROM contact
            WHERE pk IN (\(Array(repeating: select, count: keys).joined(separator: " UNION "))) \(defaultOrder)
            """
    }
    /// Whether any word begins with a key: binds it and it followed by 0xFF.
    static let holdsKey = "SELECT EXISTS (SELECT 1 FROM nameWord WHERE word >= ? AND word < ?)"

    private static func either(_ condition: String, _ count: Int) -> String {
        count == 1 ? condition : "(" + Array(repeating: condition, count: count).joined(separator: " OR ") + ")"
    }
    /// The matches of a name prefix, counted up to a limit: binds the
    /// folded prefix, it followed by 0xFF, and the limit.
    static let namePrefixCount = "SELECT count(*) FROM (SELECT 1 FROM nameWord WHERE word >= ? AND word < ? LIMIT ?)"
    static let contactCount = "SELECT coalesce(sum(count), 0) FROM attributeCount"
    /// Around a twin of several statements, so that they read one state.
    static let beginRead = "BEGIN DEFERRED TRANSACTION", commit = "COMMIT TRANSACTION"
    /// The default phone regions, when set (`RU,KR` otherwise).
    static let phoneRegions = "SELECT value FROM setting WHERE key = 'phoneRegions'"
    /// The matches of an FTS5 query, counted up to a limit.
    static let textCount = "SELECT count(*) FROM (SELECT 1 FROM contactSearch WHERE contactSearch MATCH ? LIMIT ?)"
    /// A common word: the order read until the page is full. Binds a space
    /// and each of the word's `keys` folded keys.
    static func commonText(keys: Int) -> String {
        "SELECT \(contactColumns) FROM contact WHERE \(either("instr(searchWords, ?) > 0", keys)) \(defaultOrder)"
    }
    /// A rare word: its few contacts found by the search index, then
    /// sorted. Binds an FTS5 prefix query (`"word"*`).
    static let rareText = """
        SELECT \(contactColumns) FROM contact
        WHERE pk IN (SELECT rowid FROM contactSearch WHERE contactSearch MATCH ?) \(defaultOrder)
        """
    /// Binds a quoted FTS5 string of digits.
    static let phoneDigits = """
        SELECT \(contactColumns) FROM contact
        WHERE pk IN (SELECT \(PhoneKey.contactPk(of: "rowid")) FROM phoneDigits WHERE phoneDigits MATCH ?)
        \(defaultOrder)
        """
    /// The contacts `numbers` numbers of 10 digits or more find, each by
    /// its 7-digit windows at offsets 0–3. Binds each one's four windows
    /// and digits.
    static func wholePhone(numbers: Int) -> String {
        let select = """
            SELECT phone.contactPk FROM phoneWindow JOIN phone
                ON phone.contactPk = \(PhoneKey.contactPk(of: "phoneKey"))
                AND phone.position = \(PhoneKey.position(of: "phoneKey"))
            WHERE window IN (?, ?, ?, ?) AND instr(phone.normalized, ?) > 0
            """
        let union = Array(repeating: select, count: numbers).joined(separator: " UNION ")
        return "SELECT \(contactColumns) FROM contact WHERE pk IN (\(union)) \(defaultOrder)"
    }
    /// The thumbnails of the contacts whose keys are bound as one JSON array.
    static let thumbnails = """
        SELECT contactPk, thumbnailType, thumbnail FROM contactPhoto
        WHERE contactPk IN (SELECT value FROM json_each(?)) AND thumbnail IS NOT NULL
        """
    static let sections = "SELECT sectionKey, count FROM sectionCount WHERE count > 0 ORDER BY sortIndex"

    // MARK: - One row per person (links)

    /// The first 50 contacts that head their person, in `order` (an ORDER
    /// BY's terms), whose person holds every one of `attributes`.
    static func unifiedPage(holding attributes: ContactAttributes, orderedBy order: String) -> String {
        let holding = attributes.isEmpty ? ""
            : " AND coalesce(personAttributes, attributes) & \(attributes.rawValue) = \(attributes.rawValue)"
        return "SELECT \(contactColumns) FROM contact WHERE isPersonHead = 1\(holding) ORDER BY \(order) LIMIT 50"
    }
    static let unifiedFourAttributesCount =
        "SELECT sum(count + personDelta) FROM attributeCount WHERE attributes & \(fourAttributes) = \(fourAttributes)"
    static let unifiedSections =
        "SELECT sectionKey, count - nonHeads FROM sectionCount WHERE count - nonHeads > 0 ORDER BY sortIndex"
    /// Every child of the contacts whose keys are bound as one JSON array,
    /// and their groups' names.
    static let children = ([
        "type, value, normalized, preferred, parameters, display FROM phone", "type, value, preferred, parameters FROM email",
        "type, street1, street2, city, state, zipcode, country, poBox, preferred, parameters FROM address",
        "service, handle, parameters FROM messenger",
    ] + CardList.all.map { "\($0.columns.map(\.name).joined(separator: ", ")) FROM \($0.table)" }).map {
        "SELECT contactPk, \($0) WHERE contactPk IN (SELECT value FROM json_each(?)) ORDER BY contactPk, position"
    } + [
        """
        SELECT contactPk, name FROM groupMember JOIN contactGroup ON pk = groupPk
        WHERE contactPk IN (SELECT value FROM json_each(?))
        """,
    ]
}
