import Foundation
import GRDB

extension ContactQuery {
    /// The WHERE clause (or "") and its arguments. Every value is bound as
    /// a parameter; none is ever spliced into the SQL text.
    func whereClause() -> (sql: String, arguments: StatementArguments) {
        var conditions: [String] = []
        var arguments = StatementArguments()
        func add(_ condition: String, _ values: [(any DatabaseValueConvertible)?]) {
            conditions.append(condition)
            arguments += StatementArguments(values)
        }
        for filter in filters {
            switch filter {
            case .has(let attributes):
                add("contact.attributes & ? = ?", [attributes.rawValue, attributes.rawValue])
            case .namePrefix(let text):
                for word in Text.words(Collation.fold(text)) {
                    // UTF-8 never holds 0xFF, so key‖FF bounds every word
                    // that starts with key.
                    let key = Data(word.utf8)
                    add("contact.id IN (SELECT contactId FROM nameWord WHERE word >= ? AND word < ?)",
                        [key, key + [0xFF]])
                }
            case .phone(let text):
                add("contact.id IN (SELECT contactId FROM phone WHERE instr(normalized, ?) > 0)",
                    [Self.phoneDigits(text)])
            case .emailContains(let text):
                add("contact.id IN (SELECT contactId FROM email WHERE instr(valueFolded, ?) > 0)",
                    [Collation.fold(text)])
            case .companyContains(let text):
                add("instr(contact.companyFolded, ?) > 0", [Collation.fold(text)])
            case .cityContains(let text):
                add("contact.id IN (SELECT contactId FROM address WHERE instr(cityFolded, ?) > 0)",
                    [Collation.fold(text)])
            case .countryContains(let text):
                add("contact.id IN (SELECT contactId FROM address WHERE instr(countryFolded, ?) > 0)",
                    [Collation.fold(text)])
            case .section(let label):
                // A label and its position go together; unknown labels match nothing.
                add("contact.sortIndex = ?", [SectionIndex.position[label.uppercased()] ?? -1])
            }
        }
        let sql = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return (sql, arguments)
    }

    /// The ORDER BY terms; each matches one index of the schema, so no sort
    /// needs a temporary B-tree.
    func orderClause() -> String {
        let direction = sort.descending ? " DESC" : ""
        let column: String
        switch sort.key {
        case .name:
            return "ORDER BY contact.sortIndex\(direction), contact.sortKey\(direction), contact.id\(direction)"
        case .firstName: column = "contact.firstNameKey"
        case .lastName: column = "contact.lastNameKey"
        case .company: column = "contact.companyKey"
        }
        // Contacts lacking the field come last in both directions; ties
        // break by sortName, then id, ascending.
        return "ORDER BY \(column) IS NULL, \(column)\(direction), contact.sortKey, contact.id"
    }

    /// The statement that selects the matching contacts' rows, in order.
    func selectStatement(columns: String) -> (sql: String, arguments: StatementArguments) {
        var (whereSQL, arguments) = whereClause()
        var sql = "SELECT \(columns) FROM contact \(whereSQL) \(orderClause())"
        if limit != nil || offset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments += [limit ?? -1, offset]
        }
        return (sql, arguments)
    }

    func countStatement() -> (sql: String, arguments: StatementArguments) {
        let (whereSQL, arguments) = whereClause()
        return ("SELECT count(*) FROM contact \(whereSQL)", arguments)
    }

    func sectionsStatement() -> (sql: String, arguments: StatementArguments) {
        let (whereSQL, arguments) = whereClause()
        return ("""
            SELECT contact.sectionKey, count(*) FROM contact \(whereSQL)
            GROUP BY contact.sortIndex, contact.sectionKey ORDER BY contact.sortIndex
            """, arguments)
    }

    /// The digits a phone filter looks for: the text normalized like a
    /// stored number, without its "+".
    static func phoneDigits(_ text: String) -> String {
        PhoneNumber(text).normalized.filter(\.isNumber)
    }
}

extension ContactStore {
    // MARK: - Querying

    /// The contacts that match `query`, in its order, each with all its
    /// children: one statement for the page and one per child table.
    ///
    /// - parameter includingChildren: false leaves phones, emails, addresses
    ///   and messengers empty, for a list that shows names only.
    public func contacts(matching query: ContactQuery, includingChildren: Bool = true) throws -> [Contact] {
        try read { db in
            let (sql, arguments) = query.selectStatement(columns: ContactReader.contactColumns)
            let contacts = try Row.fetchAll(db, sql: sql, arguments: arguments).map(ContactReader.makeContact)
            return includingChildren ? try ContactReader.withChildren(contacts, db) : contacts
        }
    }

    /// The ids that match `query`, in its order.
    public func ids(matching query: ContactQuery) throws -> [String] {
        try read { db in
            let (sql, arguments) = query.selectStatement(columns: "contact.id")
            return try String.fetchAll(db, sql: sql, arguments: arguments)
        }
    }

    /// How many contacts match `query`'s filters (its page is ignored).
    public func count(matching query: ContactQuery) throws -> Int {
        try read { db in
            let (sql, arguments) = query.countStatement()
            return try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0
        }
    }

    /// The non-empty sections among the contacts that match `query`'s
    /// filters, in index order, with their counts.
    public func sections(matching query: ContactQuery) throws -> [SectionCount] {
        try read { db in
            let (sql, arguments) = query.sectionsStatement()
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map {
                SectionCount(sectionKey: $0[0], count: $0[1])
            }
        }
    }

    /// The SQL that fetches `query`'s page, and SQLite's plan for it (one
    /// line per plan step, indented by depth).
    public func explain(_ query: ContactQuery) throws -> (sql: String, plan: [String]) {
        try read { db in
            let (sql, arguments) = query.selectStatement(columns: ContactReader.contactColumns)
            var depth: [Int: Int] = [:]
            let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { row -> String in
                let id: Int = row["id"], parent: Int = row["parent"]
                let level = (depth[parent] ?? -1) + 1
                depth[id] = level
                return String(repeating: "  ", count: level) + (row["detail"] as String)
            }
            return (sql, plan)
        }
    }
}
