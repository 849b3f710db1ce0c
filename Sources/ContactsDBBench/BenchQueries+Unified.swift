import ContactsDB

extension BenchQueries {
    /// A unified page of 50 in one order, of the people holding `attributes`
    /// on any card, and its twin's ORDER BY, written by hand.
    struct UnifiedPage {
        var name: String
        var title: String
        var sort: ContactSort
        var attributes: ContactAttributes = []
        var twinOrder: String
    }

    static let phoneAndEmail: ContactAttributes = [.phone, .email]
    static let fourAttributes: ContactAttributes = [.telegram, .whatsapp, .phone, .email]

    /// U1 and U3 (Q1 and Q3 with one row per person), then a page in each
    /// order they leave out.
    static let unifiedPages = [
        UnifiedPage(name: "U1", title: "Q1, one row per person", sort: ContactSort(),
                    twinOrder: "sortIndex, sortKey, id"),
        UnifiedPage(name: "U3", title: "Q3, one row per person (the four on any linked card)",
                    sort: ContactSort(key: .firstName, descending: true), attributes: fourAttributes,
                    twinOrder: "firstNameKey IS NULL, firstNameKey DESC, sortKey, id"),
        UnifiedPage(name: "U9", title: "Q2, one row per person (phone ∧ email on any linked card)",
                    sort: ContactSort(key: .lastName), attributes: phoneAndEmail,
                    twinOrder: "lastNameKey IS NULL, lastNameKey, sortKey, id"),
        UnifiedPage(name: "U10", title: "last name Z→A, 50, one row per person", sort: ContactSort(key: .lastName, descending: true),
                    twinOrder: "lastNameKey IS NULL, lastNameKey DESC, sortKey, id"),
        UnifiedPage(name: "U11", title: "company A→Z, 50, one row per person", sort: ContactSort(key: .company),
                    twinOrder: "companyKey IS NULL, companyKey, sortKey, id"),
        UnifiedPage(name: "U12", title: "phone ∧ email, company Z→A, 50, one row per person",
                    sort: ContactSort(key: .company, descending: true), attributes: phoneAndEmail,
                    twinOrder: "companyKey IS NULL, companyKey DESC, sortKey, id"),
        UnifiedPage(name: "U13", title: "first name A→Z, 50, one row per person", sort: ContactSort(key: .firstName),
                    twinOrder: "firstNameKey IS NULL, firstNameKey, sortKey, id"),
        UnifiedPage(name: "U14", title: "default order Z→A, 50, one row per person", sort: ContactSort(key: .name, descending: true),
                    twinOrder: "sortIndex DESC, sortKey DESC, id DESC"),
    ]

    /// The unified queries, for a database with links: the pages above,
    /// and U4 and U8 (Q4 and Q8 counting persons).
    static func unified(store: ContactStore, sql: RawQueries) throws -> [BenchQuery] {
        let pages = try unifiedPages.map { page in
            var query = ContactQuery().unified().sorted(by: page.sort.key, descending: page.sort.descending).page(limit: 50)
            if !page.attributes.isEmpty { query = query.filter(.has(page.attributes)) }
            let statement = try sql.raw.prepare(BenchmarkSQL.unifiedPage(holding: page.attributes, orderedBy: page.twinOrder))
            return BenchQuery(name: page.name, title: page.title,
                              engine: { try store.contacts(matching: query, includingChildren: false).count },
                              raw: { sql.readContacts(statement).count })
        }
        let count = ContactQuery().unified().filter(.has(fourAttributes))
        let counts = [
            BenchQuery(name: "U4", title: "Q4, counting persons",
                       engine: { try store.count(matching: count) }, raw: sql.unifiedFourAttributeCount),
            BenchQuery(name: "U8", title: "Q8, counting persons",
                       engine: { try store.sections(matching: ContactQuery().unified()).count }, raw: sql.unifiedSections),
        ]
        // In the order the report has always listed them: U1, U3, U4, U8, then the others.
        return pages.prefix(2) + counts + pages.dropFirst(2)
    }
}
