import Foundation
import GRDB

/// Choices made from the data before a query is compiled.
struct QueryPlan: Hashable {
    /// Name-prefix keys common enough that scanning the requested order and
    /// checking each contact's words beats sorting every match.
    var scannedNamePrefixes: Set<Data> = []
    /// Likewise for the words of a text filter.
    var scannedTextWords: Set<String> = []
    /// The database's default phone regions, which read a phone filter as
    /// they read stored numbers.
    var regions = PhoneRegions.default
    /// The books the query names, by name as given: looked up by their
    /// names folded in full (``BookRecords/id(named:_:)``), which SQL
    /// cannot do, then bound as constants.
    var books: [String: BookID] = [:]
    /// The marked forms of Latin words (``SearchKeys/cyrillicMark``) that
    /// begin no stored key, left out of the SQL: most words begin no
    /// Cyrillic name, and each form left in costs every row scanned.
    var absentKeys: Set<String> = []
}

extension ContactQuery {
    /// The folded keys of a name-prefix filter: per word, the word and the
    /// Latin forms it is also looked for by (``SearchKeys/queryAlternatives(_:)``).
    static func namePrefixKeys(_ text: String, absent: Set<String> = []) -> [[Data]] {
        Text.words(Collation.fold(text)).map { word in
            ([String(word)] + SearchKeys.queryAlternatives(String(word)).filter { !absent.contains($0) }).map { Data($0.utf8) }
        }
    }

    /// The words of a text filter, each with the forms it is also looked
    /// for by.
    static func textWords(_ text: String, absent: Set<String> = []) -> [[String]] {
        Text.searchWords(text).map { [$0] + SearchKeys.queryAlternatives($0).filter { !absent.contains($0) } }
    }

    /// An FTS5 query for the words that start with `word`, or for `word`
    /// alone: a word holds letters and digits only, so it needs no escaping
    /// inside the quotes.
    static func textMatch(_ word: String, prefix: Bool = true) -> String {
        "\"" + word + (prefix ? "\"*" : "\"")
    }

    /// The WHERE clause (or "") and its arguments. Every value is bound as
    /// a parameter; none is ever spliced into the SQL text.
    func whereClause(_ plan: QueryPlan = QueryPlan()) -> (sql: String, arguments: StatementArguments) {
        var conditions = WhereConditions(isUnified: isUnified, plan: plan)
        if isUnified { conditions.addOfCard("contact.isPersonHead = 1", []) }
        for filter in filters { conditions.add(filter) }
        let sql = conditions.sql.isEmpty ? "" : "WHERE " + conditions.sql.joined(separator: " AND ")
        return (sql, conditions.arguments)
    }

    /// The conditions of a WHERE clause, which are ANDed, and their
    /// arguments in order.
    private struct WhereConditions {
        let isUnified: Bool
        let plan: QueryPlan
        private(set) var sql: [String] = []
        private(set) var arguments = StatementArguments()

        init(isUnified: Bool, plan: QueryPlan) {
            self.isUnified = isUnified
            self.plan = plan
        }

        mutating func addOfCard(_ condition: String, _ values: [(any DatabaseValueConvertible)?]) {
            sql.append(condition)
            arguments += StatementArguments(values)
        }

        // Unified, a person holds what any of its cards does: the inner
        // `contact` is each linked card, the set of people read once.
        mutating func add(_ condition: String, _ values: [(any DatabaseValueConvertible)?]) {
            guard isUnified else { return addOfCard(condition, values) }
            addOfCard("((\(condition)) OR contact.personId IN (SELECT personId FROM contact WHERE personId IS NOT NULL AND (\(condition))))",
                      values + values)
        }

        mutating func add(_ filter: ContactFilter) {
            switch filter {
            case .books(let names):
                addBooks(names)
            case .has(let attributes) where isUnified:
                // Each attribute on any card: the union kept on a linked
                // card (Schema/0021), read from the heads' order indexes.
                addOfCard("coalesce(contact.personAttributes, contact.attributes) & ? = ?",
                          [attributes.rawValue, attributes.rawValue])
            case .has(let attributes):
                add("contact.attributes & ? = ?", [attributes.rawValue, attributes.rawValue])
            case .namePrefix(let text):
                addNamePrefix(text)
            case .phone(let text):
                let (condition, values) = ContactQuery.phoneCondition(ContactQuery.phoneDigits(text, regions: plan.regions))
                add(condition, values)
            case .text(let text):
                addText(text)
            case .emailContains(let text):
                add("contact.pk IN (SELECT contactPk FROM email WHERE instr(valueFolded, ?) > 0)",
                    [Collation.fold(text)])
            case .companyContains(let text):
                add("instr(contact.companyFolded, ?) > 0", [Collation.fold(text)])
            case .cityContains(let text):
                add("contact.pk IN (SELECT contactPk FROM address WHERE instr(cityFolded, ?) > 0)",
                    [Collation.fold(text)])
            case .countryContains(let text):
                add("contact.pk IN (SELECT contactPk FROM address WHERE instr(countryFolded, ?) > 0)",
                    [Collation.fold(text)])
            case .favorite:
                add("contact.favoritePosition IS NOT NULL", [])
            case .group(let name):
                add("contact.pk IN (SELECT contactPk FROM groupMember WHERE groupPk IN (SELECT pk FROM contactGroup WHERE nameKey = ?))",
                    [Text.groupKey(name)])
            case .section(let label):
                // A label and its position go together; unknown labels match nothing.
                addOfCard("contact.sortIndex = ?", [SectionIndex.position[label.uppercased()] ?? -1])
            }
        }

        private mutating func addBooks(_ names: [String]) {
            // One book is a constant to the planner, whose own index then
            // gives the default order too. A book no plan found is none.
            let ids = names.map { plan.books[$0] ?? BookID(rawValue: 0) }
            if ids.count == 1 {
                add("contact.bookId = ?", [ids[0]])
            } else {
                add("contact.bookId IN (SELECT value FROM json_each(?))", [BookRecords.jsonArray(ids)])
            }
        }

        private mutating func addNamePrefix(_ text: String) {
            // A word's keys are alternatives: any of them may begin a word.
            for keys in ContactQuery.namePrefixKeys(text, absent: plan.absentKeys) {
                if keys.contains(where: plan.scannedNamePrefixes.contains) {
                    // Each word follows a space in `nameWords`.
                    let checks = keys.map { _ in "instr(contact.nameWords, ?) > 0" }
                    add(checks.count == 1 ? checks[0] : "(" + checks.joined(separator: " OR ") + ")",
                        keys.map { " " + String(decoding: $0, as: UTF8.self) })
                } else {
                    // UTF-8 never holds 0xFF, so key‖FF bounds every word
                    // that starts with key.
                    let ranges = keys.map { _ in "SELECT contactPk FROM nameWord WHERE word >= ? AND word < ?" }
                    add("contact.pk IN (" + ranges.joined(separator: " UNION ") + ")",
                        keys.flatMap { [$0, $0 + [0xFF]] })
                }
            }
        }

        private mutating func addText(_ text: String) {
            for words in ContactQuery.textWords(text, absent: plan.absentKeys) {
                let word = words[0]
                var inText: (sql: String, values: [(any DatabaseValueConvertible)?])
                if words.contains(where: plan.scannedTextWords.contains) {
                    // Each word follows a space in `searchWords`.
                    inText = (words.map { _ in "instr(contact.searchWords, ?) > 0" }.joined(separator: " OR "),
                              words.map { " " + $0 })
                } else {
                    inText = ("contact.pk IN (SELECT rowid FROM contactSearch WHERE contactSearch MATCH ?)",
                              [words.map { ContactQuery.textMatch($0) }.joined(separator: " OR ")])
                }
                if ContactQuery.searchesPhones(word) {
                    let phones = ContactQuery.phoneCondition(ContactQuery.phoneDigits(word, regions: plan.regions))
                    inText = (inText.sql + " OR " + phones.sql, inText.values + phones.values)
                }
                add(words.count > 1 || ContactQuery.searchesPhones(word) ? "(" + inText.sql + ")" : inText.sql,
                    inText.values)
            }
        }
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
    func selectStatement(columns: String, plan: QueryPlan = QueryPlan()) -> (sql: String, arguments: StatementArguments) {
        var (whereSQL, arguments) = whereClause(plan)
        var sql = "SELECT \(columns) FROM contact \(whereSQL) \(orderClause())"
        if limit != nil || offset > 0 {
            sql += " LIMIT ? OFFSET ?"
            arguments += [limit ?? -1, offset]
        }
        return (sql, arguments)
    }

    /// The attributes every "has" filter asks for, when the query has no
    /// other filter (nil otherwise): such counts are read from the
    /// maintained `attributeCount` table.
    var attributesOnly: ContactAttributes? {
        var attributes: ContactAttributes = []
        for filter in filters {
            guard case .has(let more) = filter else { return nil }
            attributes.formUnion(more)
        }
        return attributes
    }

    /// Each email address of the contacts that match, with the contact's
    /// display name and the address's type: the contacts in the query's
    /// order (its page ignored), each one's addresses in theirs.
    func emailAddressesStatement(_ plan: QueryPlan) -> (sql: String, arguments: StatementArguments) {
        let (whereSQL, arguments) = whereClause(plan)
        return ("""
            SELECT address.value, contact.displayName, address.type
            FROM contact JOIN email AS address ON address.contactPk = contact.pk \(whereSQL)
            \(orderClause()), address.position
            """, arguments)
    }

    func countStatement(_ plan: QueryPlan) -> (sql: String, arguments: StatementArguments) {
        if isUnified, let attributes = attributesOnly {
            // `personDelta` turns the contacts' counts into people's.
            return ("SELECT coalesce(sum(count + personDelta), 0) FROM attributeCount WHERE attributes & ? = ?",
                    [attributes.rawValue, attributes.rawValue])
        }
        if let attributes = attributesOnly {
            return ("SELECT coalesce(sum(count), 0) FROM attributeCount WHERE attributes & ? = ?",
                    [attributes.rawValue, attributes.rawValue])
        }
        let (whereSQL, arguments) = whereClause(plan)
        return ("SELECT count(*) FROM contact \(whereSQL)", arguments)
    }

    func sectionsStatement(_ plan: QueryPlan) -> (sql: String, arguments: StatementArguments) {
        if filters.isEmpty, isUnified {
            // Each section's people: its contacts less those heading none.
            return ("""
                SELECT sectionKey, count - nonHeads FROM sectionCount WHERE count - nonHeads > 0 ORDER BY sortIndex
                """, [])
        }
        if filters.isEmpty {
            return ("SELECT sectionKey, count FROM sectionCount WHERE count > 0 ORDER BY sortIndex", [])
        }
        let (whereSQL, arguments) = whereClause(plan)
        return ("""
            SELECT contact.sectionKey, count(*) FROM contact \(whereSQL)
            GROUP BY contact.sortIndex, contact.sectionKey ORDER BY contact.sortIndex
            """, arguments)
    }

    /// The contacts with a phone number holding any of `pieces` (digit
    /// strings, as ``phoneDigits(_:regions:)`` gives them).
    static func phoneCondition(_ pieces: [String]) -> (sql: String, values: [(any DatabaseValueConvertible)?]) {
        var selects: [String] = []
        var values: [(any DatabaseValueConvertible)?] = []
        var shortPieces: [String] = []
        for digits in pieces {
            guard let windows = phoneWindows(digits) else {
                shortPieces.append(digits)
                continue
            }
            // Schema/0004: these windows find every number holding the
            // digits, and a few more, which instr() turns away.
            selects.append("""
                SELECT phone.contactPk FROM phoneWindow
                    JOIN phone ON phone.contactPk = \(PhoneKey.contactPk(of: "phoneWindow.phoneKey"))
                        AND phone.position = \(PhoneKey.position(of: "phoneWindow.phoneKey"))
                    WHERE phoneWindow.window IN (?, ?, ?, ?) AND instr(phone.normalized, ?) > 0
                """)
            values += windows + [digits]
        }
        if !shortPieces.isEmpty {
            // A quoted FTS5 string of digits matches exactly the numbers that
            // contain it (the trigram index finds them).
            selects.append("SELECT \(PhoneKey.contactPk(of: "rowid")) FROM phoneDigits WHERE phoneDigits MATCH ?")
            values.append(shortPieces.map { "\"" + $0 + "\"" }.joined(separator: " OR "))
        }
        return ("contact.pk IN (\(selects.joined(separator: " UNION ")))", values)
    }

    /// Whether a text filter's word is also looked for among the phones:
    /// three digits or more.
    static func searchesPhones(_ word: String) -> Bool {
        word.count >= 3 && word.allSatisfy(\.isASCII) && word.allSatisfy(\.isNumber)
    }

    /// The digit strings a phone filter looks for in the stored numbers'
    /// normalized digits: the digits typed, and — when a default region
    /// reads the text as a valid number — its E.164 digits
    /// (`8 912 345-67-89` → `79123456789`), so a whole number finds itself
    /// however it was written and a piece finds every number it is part of.
    /// A string holding another is dropped: each number that holds the
    /// longer holds the shorter too.
    static func phoneDigits(_ text: String, regions: PhoneRegions) -> [String] {
        let number = PhoneNumber(text, regions: regions)
        let typed = number.digits
        guard let e164 = number.e164?.filter(\.isNumber), !e164.contains(typed) else { return [typed] }
        return typed.contains(e164) ? [e164] : [typed, e164]
    }

    /// The `phoneWindow` keys (1‖7 digits) at offsets 0–3 of digits long
    /// enough for them to find every number that holds the digits (10 or
    /// more); nil for shorter ones.
    static func phoneWindows(_ digits: String) -> [Int]? {
        let digits = Array(digits.utf8)
        guard digits.count >= 10 else { return nil }
        return (0..<4).map { start in
            digits[start..<start + 7].reduce(1) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
    }
}

/// Looks at the data to choose between plans SQLite cannot tell apart
/// without statistics.
enum QueryPlanner {
    /// Checks that every group and book the query names exists, and reads
    /// what a filter needs of the database: all a count or a section index
    /// needs.
    ///
    /// - throws: `.groupNotFound`, `.invalidBook(.notFound)`.
    static func basePlan(_ query: ContactQuery, _ db: Database) throws -> QueryPlan {
        for case .group(let name) in query.filters { try GroupWriter.requireExists(named: name, db) }
        var plan = QueryPlan()
        for case .books(let names) in query.filters {
            for name in names { plan.books[name] = try BookRecords.existingID(named: name, db) }
        }
        // Read only when a number is: a setting read costs a rare word's
        // query a tenth of its time.
        let readsNumbers = query.filters.contains { filter in
            switch filter {
            case .phone: true
            case .text(let text): Text.searchWords(text).contains(where: ContactQuery.searchesPhones)
            default: false
            }
        }
        if readsNumbers {
            plan.regions = try Settings.phoneRegions(db)
        }
        // A text's words are a name's too where they are keys.
        let marked = query.filters.flatMap { filter -> [String] in
            switch filter {
            case .namePrefix(let text): Text.words(Collation.fold(text)).flatMap { SearchKeys.queryAlternatives(String($0)) }
            case .text(let text): Text.searchWords(text).flatMap(SearchKeys.queryAlternatives)
            default: []
            }
        }
        for key in marked where key.hasPrefix(SearchKeys.cyrillicMark) {
            let bytes = Data(key.utf8)
            let held = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM nameWord WHERE word >= ? AND word < ?)"),
                                         arguments: [bytes, bytes + [0xFF]]) ?? false
            if !held { plan.absentKeys.insert(key) }
        }
        return plan
    }

    /// Checks the query's groups and chooses the plan of its page.
    ///
    /// - throws: `.groupNotFound`.
    static func plan(_ query: ContactQuery, _ db: Database) throws -> QueryPlan {
        var plan = try basePlan(query, db)
        guard let limit = query.limit else { return plan }  // every match is needed anyway
        let prefixes = query.filters.flatMap { filter -> [Data] in
            guard case .namePrefix(let text) = filter else { return [] }
            return ContactQuery.namePrefixKeys(text, absent: plan.absentKeys).flatMap { $0 }
        }
        let words = query.filters.flatMap { filter -> [String] in
            guard case .text(let text) = filter else { return [] }
            return ContactQuery.textWords(text, absent: plan.absentKeys).flatMap { $0 }
        }
        guard !prefixes.isEmpty || !words.isEmpty else { return plan }
        // Scanning the order reads about (page × contacts / matches) entries,
        // sorting reads `matches` rows: they cross at √(page × contacts × c),
        // with c an entry's cost against a row's: about 1/16 in the default
        // order, whose index holds the words, and 1 in the others, where
        // every entry's row is read.
        let contacts = try Int.fetchOne(db.cachedStatement(sql: "SELECT coalesce(sum(count), 0) FROM attributeCount")) ?? 0
        let entryCost = query.sort.key == .name ? 1.0 / 16 : 1
        // In Double: a page as large as Int allows must not overflow.
        let page = Double(limit) + Double(query.offset)
        let threshold = Int(min((page * Double(max(contacts, 1)) * entryCost).squareRoot(), Double(contacts)))
        for key in prefixes {
            let matches = try Int.fetchOne(db.cachedStatement(sql: """
                SELECT count(*) FROM (SELECT 1 FROM nameWord WHERE word >= ? AND word < ? LIMIT ?)
                """), arguments: [key, key + [0xFF], threshold + 1]) ?? 0
            if matches > threshold { plan.scannedNamePrefixes.insert(key) }
        }
        // The same crossing for a text word, whose row (unlike a name's
        // words) is not in the order's index: every scanned entry costs a row.
        let textThreshold = Int(min((page * Double(max(contacts, 1))).squareRoot(), Double(contacts)))
        for word in words where try isCommon(word, moreThan: textThreshold, db) {
            plan.scannedTextWords.insert(word)
        }
        return plan
    }

    /// Whether more than `threshold` contacts hold a word that `word`
    /// begins. FTS5 reads one word's contacts as they come, but gathers
    /// every posting of a prefix query before the first: for a common word
    /// (`call`, in 67,000 of a million contacts) that costs more than the
    /// page, and for a letter (`a`) some 50 ms. So the word alone is
    /// counted first; then a word of one or two characters, which begins a
    /// great many words, sums the index's counts word by word and stops
    /// past the threshold (a contact holding two such words counts twice:
    /// an overestimate, which only errs towards reading the order); a
    /// longer word, which begins few, counts its prefix query.
    private static func isCommon(_ word: String, moreThan threshold: Int, _ db: Database) throws -> Bool {
        func matches(prefix: Bool) throws -> Int {
            try Int.fetchOne(db.cachedStatement(sql: """
                SELECT count(*) FROM (SELECT 1 FROM contactSearch WHERE contactSearch MATCH ? LIMIT ?)
                """), arguments: [ContactQuery.textMatch(word, prefix: prefix), threshold + 1]) ?? 0
        }
        if try matches(prefix: false) > threshold { return true }
        guard word.count <= 2 else { return try matches(prefix: true) > threshold }
        try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.contactSearchTerms USING fts5vocab(main, contactSearch, row)")
        let terms = try Row.fetchCursor(db.cachedStatement(sql: "SELECT term, doc FROM temp.contactSearchTerms WHERE term >= ?"),
                                        arguments: [word])
        var total = 0
        while let row = try terms.next(), (row[0] as String).hasPrefix(word) {
            total += row[1] as Int
            if total > threshold { return true }
        }
        return false
    }

    /// SQLite's plan for a statement, one line per step, indented by depth.
    static func explain(_ sql: String, _ arguments: StatementArguments, _ db: Database) throws -> [String] {
        var depth: [Int: Int] = [:]
        return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { row -> String in
            let id: Int = row["id"], parent: Int = row["parent"]
            let level = (depth[parent] ?? -1) + 1
            depth[id] = level
            return String(repeating: "  ", count: level) + (row["detail"] as String)
        }
    }
}
