import Foundation
import GRDB
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

/// The plans of `bench`'s standard queries, from EXPLAIN QUERY PLAN on a
/// small database: a schema change that loses an index fails here, while
/// speed itself is only measured by `contactsdb bench`.
@Suite struct QueryPlanTests {
    static let store: ContactStore = {
        let store = try! ContactStore.makeEmpty()
        try! store.add(Array(SyntheticContacts(count: 300, seed: 5)))
        return store
    }()

    static func plan(_ statement: (sql: String, arguments: StatementArguments)) throws -> String {
        try store.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments)
                .map { $0["detail"] as String }.joined(separator: "\n")
        }
    }

    static let columns = ContactReader.contactColumns
    static let page = ContactQuery().page(limit: 50)
    static let q3Filter = ContactQuery().filter(.has([.telegram, .whatsapp, .phone, .email]))

    /// No table is read whole: contact only through an index, never a
    /// child table by scan, and no sort of the result.
    static func expectIndexedWithoutSort(_ plan: String, _ name: String) {
        for line in plan.split(separator: "\n") where line.hasPrefix("SCAN ") {
            #expect(line.hasPrefix("SCAN contact USING INDEX contact_on_") || line.contains("VIRTUAL TABLE"),
                    "\(name) scans: \(line)")
        }
        #expect(!plan.contains("TEMP B-TREE"), "\(name) sorts:\n\(plan)")
    }

    @Test func q1AndQ9PageTheDefaultOrderFromItsIndex() throws {
        let plan = try Self.plan(Self.page.selectStatement(columns: Self.columns))
        #expect(plan.contains("SCAN contact USING INDEX contact_on_defaultOrder"))
        Self.expectIndexedWithoutSort(plan, "Q1")
        for table in ["phone", "email", "address", "messenger"] {
            let children = try Self.plan((ContactReader.childrenSQL("position", from: table), ["[1, 2]"]))
            #expect(children.contains("SEARCH \(table) USING PRIMARY KEY (contactPk=?)"), "\(children)")
            Self.expectIndexedWithoutSort(children, "Q9 \(table)")
        }
    }

    @Test func q2AndQ3CheckAttributesInTheSortIndex() throws {
        let q2 = ContactQuery().filter(.has([.phone, .email])).sorted(by: .lastName).page(limit: 50)
        let plan2 = try Self.plan(q2.selectStatement(columns: Self.columns))
        #expect(plan2.contains("contact_on_lastName_asc"))
        Self.expectIndexedWithoutSort(plan2, "Q2")
        let q3 = Self.q3Filter.sorted(by: .firstName, descending: true).page(limit: 50)
        let plan3 = try Self.plan(q3.selectStatement(columns: Self.columns))
        #expect(plan3.contains("contact_on_firstName_desc"))
        Self.expectIndexedWithoutSort(plan3, "Q3")
    }

    @Test func q4AndQ8ReadTheMaintainedCounts() throws {
        let count = try Self.plan(Self.q3Filter.countStatement(QueryPlan()))
        #expect(count.contains("attributeCount") && !count.contains("contact"), "\(count)")
        let sections = try Self.plan(ContactQuery().sectionsStatement(QueryPlan()))
        #expect(sections.contains("sectionCount") && !sections.contains("TEMP B-TREE"), "\(sections)")
        #expect(try Self.store.count(matching: Self.q3Filter)
                == Self.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM contact WHERE attributes & 27 = 27") })
    }

    /// A common prefix (as "an" is in a large data set) scans the order and
    /// checks each contact's words in the index; a rare one sorts only its
    /// few matches.
    @Test func q5NamePrefixPlans() throws {
        let q5 = ContactQuery().filter(.namePrefix("an")).page(limit: 50)
        let dense = try Self.plan(q5.selectStatement(
            columns: Self.columns, plan: QueryPlan(scannedNamePrefixes: [Data("an".utf8)])))
        #expect(dense == "SCAN contact USING INDEX contact_on_defaultOrder", "\(dense)")
        Self.expectIndexedWithoutSort(dense, "Q5")
        let sparse = try Self.plan(q5.selectStatement(columns: Self.columns))
        #expect(sparse.contains("SEARCH nameWord USING PRIMARY KEY (word>? AND word<?)"), "\(sparse)")
    }

    /// Appending a favorite reads the favorites' index, not every contact
    /// (a scan here made imports quadratic in their favorites).
    @Test func theNextFavoritePositionComesFromTheIndex() throws {
        let plan = try Self.plan((FavoriteList.nextPositionSQL, []))
        #expect(plan.contains("USING COVERING INDEX contact_on_favoritePosition") && !plan.contains("SCAN"), "\(plan)")
    }

    /// A whole number (10 digits or more) is found by point lookups of its
    /// windows; fewer digits through the trigram index. Either way only
    /// the few matches are then ordered: the one sort in these plans.
    @Test func q6AndQ7FindTheirFewMatchesByIndex() throws {
        let whole = try Self.plan(ContactQuery().filter(.phone("8 (912) 345-67-89")).page(limit: 50)
            .selectStatement(columns: Self.columns))
        #expect(whole.contains("SEARCH phoneWindow USING PRIMARY KEY (window=?)"), "\(whole)")
        #expect(whole.contains("SEARCH phone USING PRIMARY KEY (contactPk=? AND position=?)"), "\(whole)")
        let middle = try Self.plan(ContactQuery().filter(.phone("4567")).page(limit: 50)
            .selectStatement(columns: Self.columns))
        #expect(middle.contains("SCAN phoneDigits VIRTUAL TABLE"), "\(middle)")
        for plan in [whole, middle] {
            #expect(plan.contains("SEARCH contact USING INTEGER PRIMARY KEY"), "\(plan)")
            #expect(!plan.contains("SCAN contact") && !plan.contains("SCAN phone "), "\(plan)")
        }
    }
}
