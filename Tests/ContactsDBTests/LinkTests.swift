import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

/// Links (docs/cli.md, "One person across books: links"): the unified list
/// against a brute-force reference, and what every write does to links.
@Suite struct LinkTests {
    static let books = ["work", "family", "home"]

    /// An empty store with the three books.
    static func emptyStore() throws -> ContactStore {
        var options = ContactStore.Options()
        options.seedsOnFirstOpen = false
        let store = try ContactStore.makeInMemory(options: options)
        for book in books { try store.createBook(named: book) }
        return store
    }

    /// `count` generated contacts spread over the three books, and random
    /// links of two or three contacts of different books, each contact in
    /// one link at most.
    static func linkedStore(count: Int, links: Int, seed: UInt64) throws -> (ContactStore, [[String]]) {
        let store = try emptyStore()
        var random = SplitMix64(seed: seed)
        var drafts: [String: [ContactDraft]] = [:]
        for draft in SyntheticContacts(count: count, seed: seed) {
            drafts[books[Int(random.next() % 3)], default: []].append(draft)
        }
        var free: [String: [String]] = [:]
        for book in books { free[book] = try store.add(drafts[book] ?? [], toBook: book).map(\.id) }
        var sets: [[String]] = []
        for _ in 0..<links {
            let size = 2 + Int(random.next() % 2)
            var chosen = books
            chosen.remove(at: Int(random.next() % 3))
            if size == 3 { chosen = books }
            var ids: [String] = []
            for book in chosen {
                guard var pool = free[book], !pool.isEmpty else { continue }
                ids.append(pool.remove(at: Int(random.next() % UInt64(pool.count))))
                free[book] = pool
            }
            guard ids.count >= 2 else { continue }
            try store.link(ids)
            sets.append(ids)
        }
        return (store, sets)
    }

    // MARK: - The unified list

    /// A random filter drawn from the data: each kind the issue names.
    static func randomFilter(_ contacts: [Contact], _ random: inout SplitMix64) -> ContactFilter {
        let contact = contacts[Int(random.next() % UInt64(contacts.count))]
        func prefix(_ word: String?) -> String {
            let letters = String((word ?? "an").prefix(1 + Int(random.next() % 3))).filter(\.isLetter)
            return letters.isEmpty ? "an" : letters
        }
        switch random.next() % 6 {
        case 0:
            let kinds: [ContactAttributes] = [.phone, .email, .address, .telegram, .whatsapp, .birthday]
            var attributes: ContactAttributes = []
            for kind in kinds where random.next() % 3 == 0 { attributes.insert(kind) }
            return .has(attributes.isEmpty ? kinds[Int(random.next() % 6)] : attributes)
        case 1: return .namePrefix(prefix(random.next() % 2 == 0 ? contact.firstName : contact.lastName))
        case 2:
            let digits = (contact.phones.first?.value ?? "912").filter(\.isNumber)
            let start = Int(random.next() % UInt64(max(digits.count - 3, 1)))
            return .phone(String(digits.dropFirst(start).prefix(3 + Int(random.next() % 3))))
        case 3:
            let words = [BenchWords.common, contact.firstName ?? "call", contact.company ?? "acme"]
            return .text(prefix(words[Int(random.next() % 3)]) + (random.next() % 2 == 0 ? "" : "a"))
        case 4: return .section(contact.sectionKey)
        default: return .has(.telegram)
        }
    }

    /// The reference: each filter split into what one card must match (an
    /// attribute, a word), the cards matching each read from the
    /// non-unified query; a person matches when, for each part, one of its
    /// cards does (a section: its first card); ordered by its first card.
    struct Reference {
        let store: ContactStore
        /// Each contact's person, its cards in the default order.
        let personOf: [String: [String]]
        var matches: [ContactFilter: Set<String>] = [:]

        init(store: ContactStore, sets: [[String]]) throws {
            self.store = store
            let order = try store.ids(matching: ContactQuery())
            let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
            var personOf = Dictionary(uniqueKeysWithValues: order.map { ($0, [$0]) })
            for set in sets {
                let sorted = set.sorted { position[$0]! < position[$1]! }
                for id in set { personOf[id] = sorted }
            }
            self.personOf = personOf
        }

        mutating func cards(_ filter: ContactFilter) throws -> Set<String> {
            if let known = matches[filter] { return known }
            let found = Set(try store.ids(matching: ContactQuery().filter(filter)))
            matches[filter] = found
            return found
        }

        mutating func ids(_ query: ContactQuery) throws -> [String] {
            var parts: [(filter: ContactFilter, ofHead: Bool)] = []
            for filter in query.filters {
                switch filter {
                case .has(let attributes):
                    for (_, kind) in ContactAttributes.named where attributes.contains(kind) { parts.append((.has(kind), false)) }
                case .namePrefix(let text):
                    for word in text.split(separator: " ") { parts.append((.namePrefix(String(word)), false)) }
                case .text(let text):
                    for word in text.split(separator: " ") { parts.append((.text(String(word)), false)) }
                case .section: parts.append((filter, true))
                default: parts.append((filter, false))
                }
            }
            let sorted = try store.ids(matching: ContactQuery().sorted(by: query.sort.key, descending: query.sort.descending))
            var kept: [String] = []
            for id in sorted where personOf[id]!.first == id {
                let person = personOf[id]!
                var matching = true
                for part in parts where matching {
                    let cards = try cards(part.filter)
                    matching = part.ofHead ? cards.contains(id) : person.contains(where: cards.contains)
                }
                if matching { kept.append(id) }
            }
            return Array(kept.dropFirst(query.offset).prefix(query.limit ?? .max))
        }
    }

    /// Every sort key, each ascending and descending.
    static let sorts = ContactSort.Key.allCases.flatMap { [ContactSort(key: $0), ContactSort(key: $0, descending: true)] }

    @Test func theUnifiedListAgreesWithBruteForceOverLinkedSets() throws {
        let (store, sets) = try Self.linkedStore(count: 2_000, links: 400, seed: 46)
        #expect(sets.count > 300)
        var reference = try Reference(store: store, sets: sets)
        let contacts = try store.contacts(matching: ContactQuery())
        let sectionOf = Dictionary(uniqueKeysWithValues: contacts.map { ($0.id, $0.sectionKey) })
        var random = SplitMix64(seed: 4_646)
        // Each order in turn, so that every one is checked in each kind of
        // pass: without filters (every tenth), with sections (every fifth),
        // with a page (every other, and the unfiltered ones).
        for round in 0..<(Self.sorts.count * 40) {
            let sort = Self.sorts[round % Self.sorts.count], pass = round / Self.sorts.count
            var query = ContactQuery().unified()
            for _ in 0..<(pass % 10 == 0 ? 0 : 1 + Int(random.next() % 3)) {
                query = query.filter(Self.randomFilter(contacts, &random))
            }
            query = query.sorted(by: sort.key, descending: sort.descending)
            let whole = try reference.ids(query)
            #expect(try store.ids(matching: query) == whole, "\(query)")
            #expect(try store.count(matching: query) == whole.count, "\(query)")
            if pass % 2 == 1 || pass % 10 == 0 {
                let (limit, offset) = (1 + Int(random.next() % 40), Int(random.next() % 30))
                let page = query.page(limit: limit, offset: offset)
                let people = try store.people(matching: page)
                #expect(people.map(\.contact.id) == Array(whole.dropFirst(offset).prefix(limit)), "\(page)")
                #expect(people.allSatisfy { $0.ids == reference.personOf[$0.contact.id] })
            }
            if pass % 5 == 0 {
                var bySection: [String: Int] = [:]
                for id in whole { bySection[sectionOf[id]!, default: 0] += 1 }
                let sections = try store.sections(matching: query)
                #expect(Dictionary(uniqueKeysWithValues: sections.map { ($0.sectionKey, $0.count) }) == bySection, "\(query)")
            }
        }
        // Without filters: the maintained counts less the cards that stand for none.
        let persons = Set(reference.personOf.values.map { $0 })
        #expect(try store.count(matching: ContactQuery().unified()) == persons.count)
        #expect(try store.sections(matching: ContactQuery().unified()).map(\.count).reduce(0, +) == persons.count)
        let telegram = try reference.ids(ContactQuery().unified().filter(.has([.telegram, .email])))
        #expect(try store.count(matching: ContactQuery().unified().filter(.has([.telegram, .email]))) == telegram.count)
    }

    @Test func aPersonRowHoldsTheListsOfAllItsCards() throws {
        let store = try Self.emptyStore()
        var anna = ContactDraft(id: "anna-work", firstName: "Anna", lastName: "Berg")
        anna.phones = [Phone(value: "+7 912 111-22-33")]
        anna.emails = [Email(value: "anna@work.example")]
        var annaHome = ContactDraft(id: "anna-home", firstName: "Anna", lastName: "Berg")
        annaHome.phones = [Phone(value: "8 912 111 22 33"), Phone(value: "+49 30 1234567")]
        annaHome.emails = [Email(value: "ANNA@work.example"), Email(value: "anna@home.example")]
        annaHome.messengers = [Messenger(service: "telegram", handle: "@annab")]
        try store.add(anna, toBook: "work")
        try store.add(annaHome, toBook: "home")
        try store.add(ContactDraft(id: "boris", firstName: "Boris"), toBook: "home")
        try store.link(["anna-work", "anna-home"])
        let people = try store.people(matching: ContactQuery().filter(.has(.telegram)))
        #expect(people.map(\.ids) == [["anna-home", "anna-work"]])
        let row = try #require(people.first)
        #expect(row.contact.phones.count == 2 && row.contact.emails.count == 2 && row.contact.messengers.count == 1)
        #expect(row.jsonText.hasPrefix(#"{"ids": ["anna-home", "anna-work"], "id": "anna-home""#))
        #expect(try store.linkedIDs(of: "anna-work") == ["anna-home"])
        #expect(try store.count(matching: ContactQuery().unified()) == 2)
        #expect(try store.count(matching: ContactQuery()) == 3)
    }

    @Test func theUnifiedListIsReadFromIndexes() throws {
        let (store, _) = try Self.linkedStore(count: 400, links: 50, seed: 3)
        // Each order's own index, which holds whether a card heads its
        // person and the person's attributes (Schema/0025): one scan, as
        // the plain page's, and the ids alone read from the index only.
        for sort in Self.sorts {
            let index = sort.key == .name ? "contact_on_defaultOrder"
                : "contact_on_\(sort.key == .firstName ? "firstName" : sort.key == .lastName ? "lastName" : "company")"
                    + (sort.descending ? "_desc" : "_asc")
            for query in [ContactQuery().unified(), ContactQuery().unified().filter(.has([.telegram, .email]))] {
                let page = query.sorted(by: sort.key, descending: sort.descending).page(limit: 50)
                #expect(try store.explain(page).plan == ["SCAN contact USING INDEX \(index)"], "\(page)")
                let ids = try store.read { db in
                    let (sql, arguments) = page.selectStatement(columns: ContactReader.idColumn, plan: try QueryPlanner.plan(page, db))
                    return try QueryPlanner.explain(sql, arguments, db)
                }
                #expect(ids == ["SCAN contact USING COVERING INDEX \(index)"], "\(page)")
            }
        }
        let plan = try store.explain(ContactQuery().unified().filter(.namePrefix("an")).page(limit: 50)).plan
        #expect(plan.contains { $0.contains("contact_on_person") }, "\(plan)")
        // No line reads the whole table or sorts in a temporary tree.
        #expect(!plan.contains { $0.hasSuffix("SCAN contact") || $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    /// The people as the store holds them now: each linked set once.
    static func linkedSets(_ store: ContactStore) throws -> [[String]] {
        var sets: Set<[String]> = []
        for id in try store.ids(matching: ContactQuery()) {
            let others = try store.linkedIDs(of: id)
            if !others.isEmpty { sets.insert(([id] + others).sorted()) }
        }
        return Array(sets)
    }

    @Test func theKeptUnionsAndCountsFollowEveryWrite() throws {
        let (store, _) = try Self.linkedStore(count: 200, links: 50, seed: 21)
        var random = SplitMix64(seed: 2_121)
        for step in 0..<40 {
            let ids = try store.ids(matching: ContactQuery())
            let id = ids[Int(random.next() % UInt64(ids.count))]
            let other = ids[Int(random.next() % UInt64(ids.count))]
            let coin = random.next() % 2 == 0
            switch random.next() % 5 {
            case 0: try store.update(id: id) { $0.messengers = coin ? [] : [Messenger(service: "telegram", handle: "@t\(step)")] }
            case 1: try store.update(id: id) { $0.emails = coin ? [] : [Email(value: "p\(step)@example.org")] }
            case 2: try store.unlink([id])
            case 3: try store.delete(ids: [id])
            default:
                // Cards of one book are no person: only a link across books is made.
                let person = [id] + (try store.linkedIDs(of: id))
                let books = try (person + [other]).map { try #require(try store.contact(id: $0)).book }
                if !person.contains(other), try store.linkedIDs(of: other).isEmpty, !books.dropLast().contains(books.last!) {
                    try store.link([id, other])
                }
            }
            var reference = try Reference(store: store, sets: try Self.linkedSets(store))
            for attributes: ContactAttributes in [.telegram, [.telegram, .email], [.phone, .whatsapp]] {
                let query = ContactQuery().unified().filter(.has(attributes))
                let whole = try reference.ids(query)
                #expect(try store.ids(matching: query) == whole, "step \(step): \(attributes)")
                #expect(try store.count(matching: query) == whole.count, "step \(step): \(attributes)")
            }
            let persons = Set(reference.personOf.values).count
            #expect(try store.sections(matching: ContactQuery().unified()).map(\.count).reduce(0, +) == persons)
            let findings = try store.diagnose().filter { ["counts", "attributes"].contains($0.check) }
            #expect(findings.count == 2 && findings.allSatisfy(\.isHealthy), "step \(step): \(findings)")
        }
    }

    // MARK: - Links and writes

    static func twoBooksOfAnna() throws -> ContactStore {
        let store = try emptyStore()
        var draft = ContactDraft(id: "a1", firstName: "Anna", lastName: "Berg")
        draft.phones = [Phone(value: "+7 912 111-22-33")]
        try store.add(draft, toBook: "work")
        draft.id = "a2"
        draft.groups = ["Friends"]
        try store.add(draft, toBook: "home")
        draft.id = "a3"
        draft.groups = []
        try store.add(draft, toBook: "family")
        draft.id = "a4"
        try store.add(draft, toBook: "work")
        return store
    }

    @Test func aLinkIsOfDifferentBooksAndMovesNoRevision() throws {
        let store = try Self.twoBooksOfAnna()
        #expect(throws: ContactsDBError.linkWithinBook(ids: ["a1", "a4"], book: "work")) { try store.link(["a1", "a2", "a4"]) }
        #expect(throws: ContactsDBError.tooFewToLink(ids: ["a1"])) { try store.link(["a1", "a1"]) }
        #expect(throws: ContactsDBError.contactsNotFound(ids: ["nope"])) { try store.link(["a1", "nope"]) }
        #expect(try store.linkedIDs(of: "a1").isEmpty, "a refused link writes nothing")
        let token = try store.changeToken()
        #expect(try store.link(["a1", "a2"]) == ["a1", "a2"])
        #expect(try store.changes(since: token).changes.isEmpty, "a link is no change of a card")
        // a4 is in a1's book: one person holds one card of each book.
        #expect(throws: ContactsDBError.linkWithinBook(ids: ["a4", "a1"], book: "work")) { try store.link(["a4", "a2"]) }
        // A link naming a linked contact joins its person.
        #expect(try store.link(["a3", "a2"]) == ["a1", "a2", "a3"])
    }

    @Test func unlinkKeepsContactsApartForGood() throws {
        let store = try Self.twoBooksOfAnna()
        let suggested = try store.duplicates()
        #expect(suggested.map(\.ids) == [["a1", "a2", "a3", "a4"]] && suggested.first?.action == .merge)
        try store.link(["a1", "a2", "a3"])
        #expect(try store.duplicates().map(\.ids) == [["a1", "a2", "a3", "a4"]], "a4 is a duplicate of a1 still")
        let unlinked = try store.unlink(["a3"])
        #expect(unlinked.map(\.id) == ["a3"] && unlinked.first?.from == ["a1", "a2"])
        #expect(try store.linkedIDs(of: "a1") == ["a2"])
        try store.delete(ids: ["a4"])
        #expect(try store.duplicates().isEmpty, "a3 is kept apart from a1 and a2, which are linked")
        #expect(try store.linkAllCertain().isEmpty)
        // Deleting a card takes it out of its link; a link of one is none.
        try store.delete(ids: ["a2"])
        #expect(try store.linkedIDs(of: "a1").isEmpty)
        #expect(try store.count(matching: ContactQuery().unified()) == 2)
    }

    @Test func duplicatesSayWhetherToLinkOrMerge() throws {
        let store = try Self.twoBooksOfAnna()
        try store.delete(ids: ["a4"])
        let sets = try store.duplicates()
        #expect(sets.map(\.action) == [.link])
        #expect(try store.mergeAllCertain().isEmpty, "cards of different books are not merged")
        #expect(throws: ContactsDBError.mergeAcrossBooks(ids: ["a1", "a2"], books: ["work", "home"])) {
            try store.merge(["a1", "a2"])
        }
        #expect(try store.contacts(matching: ContactQuery()).count == 3)
        #expect(try store.linkAllCertain(dryRun: true) == [["a1", "a2", "a3"]])
        #expect(try store.linkedIDs(of: "a1").isEmpty, "a dry run links nothing")
        #expect(try store.linkAllCertain() == [["a1", "a2", "a3"]])
        #expect(try store.duplicates().isEmpty)
    }

    @Test func aMixedSetMergesEachBooksCardsAndLeavesTheRestToLink() throws {
        let store = try Self.twoBooksOfAnna()
        let merged = try store.mergeAllCertain()
        #expect(merged.map(\.contact.id) == ["a1"] && merged.first?.merged == ["a4"])
        #expect(try store.duplicates().map(\.action) == [.link])
    }

    @Test func moveMergeAndUnmergeKeepLinksTrue() throws {
        let store = try Self.twoBooksOfAnna()
        try store.link(["a4", "a2"])
        try store.link(["a1", "a3"])
        try store.move(ids: ["a3"], toBook: "home")
        #expect(try store.linkedIDs(of: "a1") == ["a3"], "a moved card stays linked")
        try store.move(ids: ["a3"], toBook: "family")
        // a1 and a4 are in one book: merged, a1 is linked to what both were.
        let merge = try store.merge(["a1", "a4"])
        #expect(try store.linkedIDs(of: "a1") == ["a2", "a3"])
        try store.unmerge(try #require(merge.mergeID))
        #expect(try store.linkedIDs(of: "a1") == ["a3"])
        #expect(try store.linkedIDs(of: "a4") == ["a2"])
        #expect(try store.count(matching: ContactQuery().unified()) == 2)
    }

    @Test func aCopyIsANewLinkedContactWithTheSameFieldsAndGroups() throws {
        let store = try Self.twoBooksOfAnna()
        let copies = try store.copy(ids: ["a2"], toBook: "work")
        let copyID = try #require(copies.first)
        let copy = try #require(try store.contact(id: copyID))
        let original = try #require(try store.contact(id: "a2"))
        #expect(copy.id != "a2" && copy.uid == nil && copy.book == "work")
        #expect(copy.phones.map(\.value) == original.phones.map(\.value) && copy.groups == ["Friends"])
        #expect(try store.groups().filter { $0.name == "Friends" }.map(\.book).sorted() == ["home", "work"])
        #expect(try store.linkedIDs(of: "a2") == [copy.id])
        #expect(throws: ContactsDBError.invalidBook(.notFound("nope"))) { try store.copy(ids: ["a1"], toBook: "nope") }
    }
}

/// A word of a third of the generated notes.
private enum BenchWords {
    static let common = "call"
}
