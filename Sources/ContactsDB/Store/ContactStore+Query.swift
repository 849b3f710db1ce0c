import Foundation
import GRDB

extension ContactStore {
    // MARK: - Querying

    /// The contacts that match `query`, in its order, each with all its
    /// children: one statement for the page and one per child table.
    ///
    /// - parameter query: the filters, sort and page.
    /// - parameter includingChildren: false leaves phones, emails, addresses
    ///   and messengers empty, for a list that shows names only.
    public func contacts(matching query: ContactQuery, includingChildren: Bool = true) throws -> [Contact] {
        try read { db in try page(query, includingChildren: includingChildren, db).contacts }
    }

    /// The page `query` selects, as contacts in order with their keys.
    func page(
        _ query: ContactQuery, includingChildren: Bool, _ db: Database
    ) throws -> (pks: [Int64], contacts: [Contact]) {
        let plan = try QueryPlanner.plan(query, db)
        let (sql, arguments) = query.selectStatement(columns: ContactReader.contactColumns, plan: plan)
        var stored = try ContactReader.fetch(sql, arguments, db)
        let pks = stored.map(\.pk)
        if includingChildren {
            return (pks, try ContactReader.withChildren(stored, trustingAttributes: true, readingPhotos: false, db))
        }
        return (pks, .moving(&stored) { _, row in row.contact })
    }

    /// The people that match `query` (made unified), in its order: each row its
    /// first card with the phones, emails and messengers of all its cards
    /// (docs/cli.md, "One person across books: links"). One statement for the
    /// page, one per child table, and one for the linked cards.
    public func people(matching query: ContactQuery) throws -> [Person] {
        try read { db in
            let (pks, heads) = try page(query.unified(), includingChildren: true, db)
            let linked = try LinkRecords.linkedIDs(of: pks, db)
            let headIDs = Set(heads.map(\.id))
            let others = Array(Set(linked.values.joined()).subtracting(headIDs))
            let cards = try ContactReader.withChildren(try ContactReader.stored(ids: others, db), readingPhotos: false, db)
            let byID = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return zip(pks, heads).map { pk, head in
                var person = Person(ids: linked[pk] ?? [head.id], contact: head)
                for id in person.ids where id != head.id {
                    if let card = byID[id] { person.takeLists(of: card) }
                }
                return person
            }
        }
    }

    /// Every email address of the contacts that match `query`'s filters,
    /// as a mail client completes addresses: the contacts in the query's
    /// order, each one's addresses in theirs. One statement, no children
    /// read besides the addresses.
    public func emailAddresses(matching query: ContactQuery) throws -> [EmailAddress] {
        try read { db in
            let (sql, arguments) = query.emailAddressesStatement(try QueryPlanner.basePlan(query, db))
            var addresses: [EmailAddress] = []
            try db.forEachRow(sql, arguments) {
                addresses.append(EmailAddress(address: $0.text(0), name: $0.text(1), label: $0.text(2)))
            }
            return addresses
        }
    }

    /// The ids that match `query`, in its order.
    public func ids(matching query: ContactQuery) throws -> [String] {
        try read { db in
            let (sql, arguments) = query.selectStatement(columns: ContactReader.idColumn, plan: try QueryPlanner.plan(query, db))
            return try String.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
        }
    }

    /// How many contacts match `query`'s filters (its page is ignored).
    public func count(matching query: ContactQuery) throws -> Int {
        try read { db in
            let (sql, arguments) = query.countStatement(try QueryPlanner.basePlan(query, db))
            return try Int.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) ?? 0
        }
    }

    /// The non-empty sections among the contacts that match `query`'s
    /// filters, in index order, with their counts.
    public func sections(matching query: ContactQuery) throws -> [SectionCount] {
        try read { db in
            let (sql, arguments) = query.sectionsStatement(try QueryPlanner.basePlan(query, db))
            var sections: [SectionCount] = []
            try db.forEachRow(sql, arguments) { sections.append(SectionCount(sectionKey: $0.text(0), count: $0.int(1))) }
            return sections
        }
    }

    /// The SQL that fetches `query`'s page, and SQLite's plan for it (one
    /// line per plan step, indented by depth).
    public func explain(_ query: ContactQuery) throws -> (sql: String, plan: [String]) {
        try read { db in
            let (sql, arguments) = query.selectStatement(
                columns: ContactReader.contactColumns, plan: try QueryPlanner.plan(query, db))
            return (sql, try QueryPlanner.explain(sql, arguments, db))
        }
    }
}
