import GRDB

/// What `doctor` asks of a database: SQLite's own checks, and whether
/// each derived table still mirrors what it is derived from.
enum HealthChecks {
    /// A condition that holds in a healthy database.
    enum Condition {
        case countsMatch, phoneWindowsMatch, nameWordsMatch, attributesMatch, searchIndexMatches, booksHoldTheirContacts
        case trashAndHistoryAreWhole
    }

    /// SQLite's integrity check: `["ok"]` when the file is sound.
    static func integrity(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "PRAGMA integrity_check")
    }

    /// The table of each row whose foreign key points at nothing.
    static func orphanTables(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { $0["table"] ?? "?" }
    }

    static func holds(_ condition: Condition, _ db: Database) throws -> Bool {
        let sql: String
        switch condition {
        case .countsMatch: sql = countsMatchSQL
        case .phoneWindowsMatch: sql = phoneWindowsMatchSQL
        case .nameWordsMatch: sql = nameWordsMatchSQL
        case .attributesMatch: sql = attributesMatchSQL
        case .booksHoldTheirContacts: sql = booksHoldTheirContactsSQL
        case .trashAndHistoryAreWhole: sql = trashAndHistoryAreWholeSQL
        case .searchIndexMatches: return try searchIndexMatches(db)
        }
        return try Bool.fetchOne(db, sql: sql) ?? false
    }

    /// True when the search index holds what indexing every contact's
    /// `searchWords` afresh gives, term by term: its document and instance
    /// counts. The fresh index lives in the connection's temporary schema,
    /// so that a read-only database is checked too.
    private static func searchIndexMatches(_ db: Database) throws -> Bool {
        try db.execute(sql: """
            CREATE VIRTUAL TABLE temp.searchAfresh USING fts5(searchWords, tokenize = 'unicode61 remove_diacritics 0');
            INSERT INTO temp.searchAfresh (rowid, searchWords) SELECT pk, searchWords FROM contact;
            CREATE VIRTUAL TABLE temp.searchAfreshTerms USING fts5vocab(temp, searchAfresh, row);
            CREATE VIRTUAL TABLE temp.searchTerms USING fts5vocab(main, contactSearch, row);
            """)
        defer {
            try? db.execute(sql: """
                DROP TABLE temp.searchTerms; DROP TABLE temp.searchAfreshTerms; DROP TABLE temp.searchAfresh;
                """)
        }
        return try Bool.fetchOne(db, sql: """
            SELECT NOT EXISTS (SELECT * FROM temp.searchTerms EXCEPT SELECT * FROM temp.searchAfreshTerms)
               AND NOT EXISTS (SELECT * FROM temp.searchAfreshTerms EXCEPT SELECT * FROM temp.searchTerms)
            """) ?? false
    }

    /// True when each contact's `nameWords` holds exactly its `nameWord`
    /// rows (the two plans of a name-prefix filter read one or the other).
    private static let nameWordsMatchSQL = """
        SELECT NOT EXISTS (
            SELECT 1 FROM nameWord JOIN contact ON contact.pk = nameWord.contactPk
            WHERE instr(contact.nameWords || ' ', ' ' || CAST(nameWord.word AS TEXT) || ' ') = 0
        ) AND NOT EXISTS (
            SELECT 1 FROM contact
            WHERE length(nameWords) - length(replace(nameWords, ' ', ''))
                <> (SELECT count(*) FROM nameWord WHERE contactPk = contact.pk)
        )
        """

    /// True when each contact's attribute bits say what its children hold
    /// (queries skip the child tables its bits rule out).
    private static let attributesMatchSQL: String = {
        func rows(_ table: String) -> String { "EXISTS (SELECT 1 FROM \(table) WHERE contactPk = contact.pk)" }
        let held = ContactAttribute.allCases.map { attribute in
            let held = switch attribute.holder {
            case .phones: rows("phone")
            case .emails: rows("email")
            case .addresses: rows("address")
            case .messenger(let service):
                "EXISTS (SELECT 1 FROM messenger WHERE contactPk = contact.pk AND service = '\(service.rawValue)')"
            case .photo: rows("contactPhoto")
            case .birthday: "(birthday IS NOT NULL)"
            }
            return "\(held) * \(attribute.bit.rawValue)"
        }
        let lists = CardList.all.map(\.table).map(rows).joined(separator: " OR ")
        let heldLists = "(\(lists)) * \(ContactAttributes.cardLists.rawValue)"
        // And each linked card holds its person's union (Schema/0021).
        return """
            SELECT NOT EXISTS (SELECT 1 FROM contact WHERE attributes <> \((held + [heldLists]).joined(separator: " + ")))
               AND NOT EXISTS (SELECT 1 FROM contact WHERE personId IS NULL AND personAttributes IS NOT NULL)
               AND NOT EXISTS (SELECT 1 FROM contact JOIN personAttributesOf AS person ON person.personId = contact.personId
                               WHERE contact.personAttributes IS NOT person.attributes)
            """
    }()

    /// True when every contact's book exists, one book is the default, and
    /// each group holds contacts of its own book only (`contact.bookId`
    /// carries no foreign key: Schema/0017).
    private static let booksHoldTheirContactsSQL = """
        SELECT NOT EXISTS (SELECT 1 FROM contact WHERE bookId NOT IN (SELECT id FROM book))
           AND (SELECT count(*) FROM book WHERE isDefault = 1) = 1
           AND NOT EXISTS (
               SELECT 1 FROM groupMember m JOIN contact c ON c.pk = m.contactPk JOIN contactGroup g ON g.pk = m.groupPk
               WHERE c.bookId <> g.bookId)
        """

    /// True when each deleted contact in the trash is a card of its id, and
    /// each kept version of a contact reads as what changed and what was
    /// there before, no later than the contact's own revision.
    private static let trashAndHistoryAreWholeSQL = """
        SELECT NOT EXISTS (
            SELECT 1 FROM trashedContact
            WHERE NOT json_valid(card) OR json_extract(card, '$.id') IS NOT id
                OR (favoritePosition IS NOT NULL AND favoritePosition < 1)
        ) AND NOT EXISTS (
            SELECT 1 FROM contactVersion
            WHERE NOT json_valid(fields) OR json_type(fields) <> 'array' OR NOT json_valid(before)
                OR json_type(before) <> 'object'
        ) AND NOT EXISTS (
            SELECT 1 FROM contactVersion AS version JOIN contact ON contact.id = version.contactId
            WHERE version.revision > contact.revision
        )
        """

    /// True when `phoneWindow` holds exactly the windows of the phones.
    private static let phoneWindowsMatchSQL = """
        SELECT NOT EXISTS (SELECT window, phoneKey FROM phoneWindow EXCEPT SELECT window, phoneKey FROM phoneWindowOf)
           AND NOT EXISTS (SELECT window, phoneKey FROM phoneWindowOf EXCEPT SELECT window, phoneKey FROM phoneWindow)
        """

    /// True when the kept counts equal those computed from the contacts.
    private static let countsMatchSQL = """
        SELECT NOT EXISTS (
            SELECT sortIndex, sectionKey, count FROM sectionCount WHERE count > 0 EXCEPT SELECT * FROM sectionCountOf
        ) AND NOT EXISTS (
            SELECT * FROM sectionCountOf EXCEPT SELECT sortIndex, sectionKey, count FROM sectionCount
        ) AND NOT EXISTS (
            SELECT attributes, count FROM attributeCount WHERE count > 0 EXCEPT SELECT * FROM attributeCountOf
        ) AND NOT EXISTS (
            SELECT * FROM attributeCountOf EXCEPT SELECT attributes, count FROM attributeCount
        ) AND NOT EXISTS (
            SELECT sortIndex, nonHeads FROM sectionCount WHERE nonHeads <> 0 EXCEPT SELECT * FROM nonHeadCountOf
        ) AND NOT EXISTS (
            SELECT * FROM nonHeadCountOf EXCEPT SELECT sortIndex, nonHeads FROM sectionCount
        ) AND NOT EXISTS (
            SELECT attributes, personDelta FROM attributeCount WHERE personDelta <> 0 EXCEPT SELECT * FROM personDeltaOf
        ) AND NOT EXISTS (
            SELECT * FROM personDeltaOf EXCEPT SELECT attributes, personDelta FROM attributeCount
        )
        """
}
