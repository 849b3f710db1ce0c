import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

/// The book filter (docs/cli.md, "Address books") against a brute-force
/// reference, and the index that serves it.
@Suite struct BookQueryTests {
    static let books = ["work", "family", "home"]

    /// 1,200 generated contacts spread over three books, and where each went.
    static func store() throws -> (ContactStore, [String: String]) {
        var options = ContactStore.Options()
        options.seedsOnFirstOpen = false
        let store = try ContactStore.makeInMemory(options: options)
        var random = SplitMix64(seed: 45)
        var drafts: [String: [ContactDraft]] = [:]
        for draft in SyntheticContacts(count: 1_200, seed: 45) {
            drafts[books[Int(random.next() % 3)], default: []].append(draft)
        }
        var bookOf: [String: String] = [:]
        for book in books {
            try store.createBook(named: book)
            for contact in try store.add(drafts[book] ?? [], toBook: book) { bookOf[contact.id] = book }
        }
        return (store, bookOf)
    }

    @Test func theBookFilterAgreesWithBruteForceWithEveryOtherFilterAndSort() throws {
        let (store, bookOf) = try Self.store()
        let all = try store.contacts(matching: ContactQuery())
        #expect(Set(all.map(\.book)) == Set(Self.books))
        #expect(all.allSatisfy { bookOf[$0.id] == $0.book })
        var random = SplitMix64(seed: 7)
        let others: [ContactFilter?] = [nil, .has(.phone), .has([.email, .telegram]), .namePrefix("an"), .section("M"), .favorite]
        for round in 0..<60 {
            let chosen = Self.books.filter { _ in random.next() % 2 == 0 }
            let named = chosen.isEmpty ? [Self.books[round % 3]] : chosen
            var query = ContactQuery().filter(.books(named.map { round % 2 == 0 ? $0.uppercased() : $0 }))
            let other = others[Int(random.next() % UInt64(others.count))]
            if let other { query = query.filter(other) }
            let key = ContactSort.Key.allCases[Int(random.next() % 4)]
            query = query.sorted(by: key, descending: random.next() % 2 == 0)
            // The reference: the same query without the book filter, then the books kept.
            var unfiltered = ContactQuery()
            if let other { unfiltered = unfiltered.filter(other) }
            unfiltered = unfiltered.sorted(by: query.sort.key, descending: query.sort.descending)
            let expected = try store.ids(matching: unfiltered).filter { named.contains(bookOf[$0]!) }
            #expect(try store.ids(matching: query) == expected, "\(query)")
            #expect(try store.count(matching: query) == expected.count)
            let limit = 1 + Int(random.next() % 30), offset = Int(random.next() % 40)
            #expect(try store.ids(matching: query.page(limit: limit, offset: offset))
                == Array(expected.dropFirst(offset).prefix(limit)))
        }
    }

    @Test func oneBooksListIsReadFromItsIndexInOrder() throws {
        let (store, _) = try Self.store()
        let plan = try store.explain(ContactQuery().filter(.books(["family"])).page(limit: 50)).plan
        // The book's id, looked up before, is a constant to the planner.
        #expect(plan == ["SEARCH contact USING INDEX contact_on_book (bookId=?)"], "\(plan)")
    }

    @Test func anUnknownBookIsAnErrorNotAnEmptyList() throws {
        let (store, _) = try Self.store()
        #expect(throws: ContactsDBError.invalidBook(.notFound("nope"))) {
            try store.ids(matching: ContactQuery().filter(.books(["work", "nope"])))
        }
    }
}
