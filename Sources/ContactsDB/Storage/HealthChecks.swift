import GRDB

/// What `doctor` asks of a database: SQLite's own checks, and whether
/// each derived table still mirrors what it is derived from.
enum HealthChecks {
    /// A condition that holds in a healthy database.
    enum Condition {
        case countsMatch, phoneWindowsMatch, nameWordsMatch, attributesMatch
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
        let sql = switch condition {
        case .countsMatch: countsMatchSQL
        case .phoneWindowsMatch: phoneWindowsMatchSQL
        case .nameWordsMatch: nameWordsMatchSQL
        case .attributesMatch: attributesMatchSQL
        }
        return try Bool.fetchOne(db, sql: sql) ?? false
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
        let held = ContactAttributes.named.map { name, attribute in
            let rows = switch name {
            case "phone", "email", "address": "SELECT 1 FROM \(name) WHERE contactPk = contact.pk"
            case "photo": "SELECT 1 FROM contactPhoto WHERE contactPk = contact.pk"
            default: "SELECT 1 FROM messenger WHERE contactPk = contact.pk AND service = '\(name)'"
            }
            return "EXISTS (\(rows)) * \(attribute.rawValue)"
        }
        let lists = ["contactDate", "url", "relation", "socialProfile", "extraProperty"]
            .map { "EXISTS (SELECT 1 FROM \($0) WHERE contactPk = contact.pk)" }.joined(separator: " OR ")
        let heldLists = "(\(lists)) * \(ContactAttributes.cardLists.rawValue)"
        return "SELECT NOT EXISTS (SELECT 1 FROM contact WHERE attributes <> \((held + [heldLists]).joined(separator: " + ")))"
    }()

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
        )
        """
}
