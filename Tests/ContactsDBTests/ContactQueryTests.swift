import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

/// Checks every query against a reference answer computed here, in Swift,
/// straight from the generated input drafts — never from SQL.
@Suite struct ContactQueryTests {
    static let drafts = Array(SyntheticContacts(count: 400, seed: 42)) + ReferenceModel.awkwardDrafts
    static let store: ContactStore = {
        let store = try! ContactStore.makeEmpty()
        try! store.add(drafts)
        return store
    }()
    static let reference = ReferenceModel(drafts: drafts)

    static let sorts: [ContactSort] = ContactSort.Key.allCases.flatMap {
        [ContactSort(key: $0, descending: false), ContactSort(key: $0, descending: true)]
    }

    /// Filter sets: each attribute alone, the app's sheet combinations, and
    /// every text filter, alone and ANDed with the others.
    static let filterSets: [[ContactFilter]] = {
        var sets: [[ContactFilter]] = [[]]
        sets += ContactAttribute.allCases.map { [.has($0.bit)] }
        sets += [
            [.has([.telegram, .phone, .email])],
            [.has([.telegram, .whatsapp, .phone, .email])],
            [.has([.phone, .email])],
            [.has([.viber]), .has([.address])],
            [.namePrefix("an")], [.namePrefix("AN")], [.namePrefix("ив")], [.namePrefix("ёлк")],
            [.namePrefix("елк")], [.namePrefix("й")], [.namePrefix("и")], [.namePrefix("김")],
            [.namePrefix("mu")], [.namePrefix("Ångs")], [.namePrefix("o'b")], [.namePrefix("anna ma")],
            [.namePrefix("сидор")], [.namePrefix("zzz")],
            [.emailContains("USER")], [.emailContains(".1@")], [.emailContains("example.kr")],
            [.companyContains("acme")], [.companyContains("ЯНДЕКС")], [.companyContains("%")],
            [.companyContains("_")], [.companyContains("'")], [.companyContains("--")], [.companyContains(";")],
            [.cityContains("моск")], [.cityContains("zurich")], [.cityContains("서울")],
            [.countryContains("russ")], [.countryContains("USA")],
            [.section("A")], [.section("и")], [.section("ㄱ")], [.section("#")], [.section("Q")],
            [.has([.telegram]), .namePrefix("a"), .countryContains("a")],
            [.has([.phone]), .emailContains("example"), .section("S")],
            [.namePrefix("a"), .companyContains("a")],
            [.favorite], [.group("Family")], [.group("WORK")], [.group("клуб")], [.favorite, .has([.phone])],
            [.group("동료"), .namePrefix("a")],
        ]
        sets += textQueries.map { [.text($0)] }
        sets += [
            [.text("a"), .has([.phone])], [.text("example"), .namePrefix("a")], [.text("1"), .section("A")],
            [.text("ru"), .countryContains("russ")], [.text("work"), .favorite], [.text("a"), .group("Family")],
        ]
        // Phone search: numbers taken from the data, written other ways.
        let sample = drafts.flatMap(\.phones).map(\.value)
        for value in sample.prefix(200).enumerated().filter({ $0.offset % 25 == 0 }).map(\.element) {
            let digits = value.filter(\.isNumber)
            sets.append([.phone(value)])
            sets.append([.phone(String(digits.suffix(7)))])
            sets.append([.phone(String(digits.dropFirst(3).prefix(4)))])
            // Whole-number lengths found inside a number, not at its start.
            sets.append([.phone(String(digits.dropFirst(1).prefix(10)))])
            sets.append([.phone(String(digits.dropFirst(2)))])
            sets.append([.phone(digits.count >= 10 ? "8 " + digits.suffix(10) : digits), .has([.email])])
        }
        return sets
    }()

    /// Text queries: words of the data cut from every field of sampled
    /// contacts, cut short, shouted, joined with a word of another field,
    /// digits of phones, and words that hold nothing.
    static let textQueries: [String] = {
        var queries = ["a", "an", "EXAMPLE", "example.kr", "anna@", "@user1", "müll", "MULL", "ёлк", "елк", "й",
                       "서울", "москва", "zurich", "st", "ave", "main st", "ул", "100%", "pure_co", "o'brien", "brien",
                       "zzzz", "qqq 1", "555", "010", "+7 9", "8 (9", "orchard", "sauna", "bass", "jay", "spouse", "1"]
        var random = SplitMix64(seed: 7)
        let texts = drafts.map { ReferenceModel.searchTexts($0) }
        for index in 0..<80 {
            let words = texts[random.below(texts.count)].flatMap(ReferenceModel.words)
            guard !words.isEmpty else { continue }
            let word = words[random.below(words.count)]
            let prefix = String(word.prefix(1 + random.below(max(word.count, 1))))
            switch index % 4 {
            case 0: queries.append(prefix)
            case 1: queries.append(prefix.uppercased())
            case 2:
                let other = texts[random.below(texts.count)].flatMap(ReferenceModel.words)
                queries.append(prefix + " " + (other.first.map { String($0.prefix(2)) } ?? "x"))
            default: queries.append(word + "!")
            }
        }
        for phone in drafts.flatMap(\.phones).prefix(60).enumerated().filter({ $0.offset % 6 == 0 }).map(\.element) {
            queries.append(String(phone.value.filter(\.isNumber).suffix(4)))
        }
        return queries
    }()

    @Test func thereAreEnoughTextQueries() {
        #expect(Self.textQueries.count >= 100)
        let matching = Self.textQueries.filter { !Self.reference.ids(matching: [.text($0)], sortedBy: ContactSort()).isEmpty }
        #expect(matching.count > Self.textQueries.count * 3 / 4)
    }

    @Test(arguments: filterSets.indices)
    func everyFilterAndSortMatchesTheReference(_ index: Int) throws {
        let filters = Self.filterSets[index]
        var query = ContactQuery()
        for filter in filters { query = query.filter(filter) }
        for sort in Self.sorts {
            let sorted = query.sorted(by: sort.key, descending: sort.descending)
            let expected = Self.reference.ids(matching: filters, sortedBy: sort)
            #expect(try Self.store.ids(matching: sorted) == expected, "\(filters) sorted by \(sort)")
        }
        #expect(try Self.store.count(matching: query) == Self.reference.ids(matching: filters, sortedBy: ContactSort()).count)
    }

    @Test func theSheetFiltersAreNotEmpty() {
        // Guards the reference test against vacuous agreement on empty sets.
        let matching = Self.filterSets.filter { !Self.reference.ids(matching: $0, sortedBy: ContactSort()).isEmpty }
        #expect(matching.count > Self.filterSets.count * 3 / 4)
    }

    @Test(arguments: [ContactSort(), ContactSort(key: .lastName, descending: true), ContactSort(key: .company)])
    func pagesStitchedTogetherEqualTheWhole(_ sort: ContactSort) throws {
        let query = ContactQuery().filter(.has([.phone])).sorted(by: sort.key, descending: sort.descending)
        let whole = try Self.store.ids(matching: query)
        var stitched: [String] = []
        for offset in stride(from: 0, to: whole.count + 37, by: 37) {
            stitched += try Self.store.ids(matching: query.page(limit: 37, offset: offset))
        }
        #expect(stitched == whole)
        let page = try Self.store.contacts(matching: query.page(limit: 50, offset: 10))
        #expect(page.map(\.id) == Array(whole[10..<60]))
    }

    /// A page of a name or text query takes one of two plans, chosen by how
    /// common the prefix or word is; both must give the reference answer.
    @Test(arguments: ["a", "an", "s", "ив", "и", "김", "o'b", "zzz"].map(ContactFilter.namePrefix)
        + ["a", "e", "example", "user1", "o'brien", "1", "010", "zzz"].map(ContactFilter.text))
    func pagedQueriesMatchTheReferenceWhicheverPlanRuns(_ filter: ContactFilter) throws {
        for sort in Self.sorts {
            let query = ContactQuery().filter(filter).sorted(by: sort.key, descending: sort.descending)
            let expected = Self.reference.ids(matching: [filter], sortedBy: sort)
            #expect(try Self.store.ids(matching: query.page(limit: 10)) == Array(expected.prefix(10)), "\(filter) \(sort)")
            #expect(try Self.store.ids(matching: query.page(limit: 10, offset: 5)) == Array(expected.dropFirst(5).prefix(10)))
        }
    }

    /// In every sort, a common word reads the sort's index until the page
    /// is full and a rare one reads only the contacts the index finds: no
    /// plan reads the whole contact table.
    @Test func commonTextWordsScanTheOrderAndRareOnesSortTheirMatches() throws {
        for sort in Self.sorts {
            let query = ContactQuery().sorted(by: sort.key, descending: sort.descending).page(limit: 10)
            let common = try Self.store.explain(query.filter(.text("example"))).plan.joined()
            #expect(common.contains("SCAN contact USING INDEX contact_on_") && !common.contains("TEMP B-TREE"), "\(sort) \(common)")
            let rare = try Self.store.explain(query.filter(.text("sauna"))).plan.joined()
            #expect(rare.contains("SCAN contactSearch VIRTUAL TABLE") && rare.contains("TEMP B-TREE")
                    && !rare.contains("SCAN contact "), "\(sort) \(rare)")
        }
    }

    @Test func commonPrefixesScanTheOrderAndRareOnesSortTheirMatches() throws {
        let common = try Self.store.explain(ContactQuery().filter(.namePrefix("a")).page(limit: 10)).plan.joined()
        #expect(common.contains("SCAN contact USING INDEX contact_on_defaultOrder") && !common.contains("TEMP B-TREE"), "\(common)")
        let rare = try Self.store.explain(ContactQuery().filter(.namePrefix("o'b")).page(limit: 10)).plan.joined()
        #expect(rare.contains("SEARCH nameWord") && rare.contains("TEMP B-TREE"), "\(rare)")
    }

    @Test(arguments: [[], [ContactFilter.has([.telegram, .email])], [.namePrefix("a")]])
    func sectionsAndCountAgreeWithTheFetch(_ filters: [ContactFilter]) throws {
        var query = ContactQuery()
        for filter in filters { query = query.filter(filter) }
        let contacts = try Self.store.contacts(matching: query)
        var expected: [SectionCount] = []
        for contact in contacts {
            if expected.last?.sectionKey == contact.sectionKey { expected[expected.count - 1].count += 1 }
            else { expected.append(SectionCount(sectionKey: contact.sectionKey, count: 1)) }
        }
        #expect(try Self.store.sections(matching: query) == expected)
        #expect(Set(expected.map(\.sectionKey)).count == expected.count, "a section appears twice in the order")
        #expect(try Self.store.count(matching: query) == contacts.count)
        #expect(expected.last?.sectionKey == "#" || !contacts.contains { $0.sectionKey == "#" })
    }

    @Test func fetchedContactsCarryAllTheirChildren() throws {
        let fetched = try Self.store.contacts(matching: ContactQuery().page(limit: 50))
        for contact in fetched {
            let draft = try #require(Self.reference.validated[contact.id])
            #expect(contact.draft == draft)
        }
    }

    @Test func valuesAreBoundNeverSpliced() {
        let hostile = "zq'); DROP TABLE contact; --"
        let query = ContactQuery().filter(.namePrefix(hostile)).filter(.emailContains(hostile))
            .filter(.companyContains(hostile)).filter(.cityContains(hostile)).filter(.countryContains(hostile))
            .filter(.section(hostile)).filter(.phone("+7 912 " + hostile)).filter(.text(hostile + " 4155"))
        for statement in [query.selectStatement(columns: "contact.id"), query.countStatement(QueryPlan()), query.sectionsStatement(QueryPlan())] {
            #expect(!statement.sql.lowercased().contains("zq"))
            #expect(!statement.sql.contains("DROP"))
        }
    }

    @Test func filtersAreAndedAndSortIsReplaced() {
        let query = ContactQuery().filter(.has([.phone])).filter(.namePrefix("a"))
            .sorted(by: .company).sorted(by: .firstName, descending: true)
        #expect(query.filters == [.has([.phone]), .namePrefix("a")])
        #expect(query.sort == ContactSort(key: .firstName, descending: true))
        #expect(query.selectStatement(columns: "id").sql.contains("WHERE contact.attributes & ? = ? AND contact.pk IN"))
        #expect(query.unsorted().sort == ContactSort())
    }

    @Test func noMatchIsAnEmptyResult() throws {
        let query = ContactQuery().filter(.namePrefix("qqqqqq"))
        #expect(try Self.store.contacts(matching: query).isEmpty)
        #expect(try Self.store.count(matching: query) == 0)
        #expect(try Self.store.sections(matching: query).isEmpty)
    }

    @Test func everySortUsesAnIndexWithoutATemporaryBTree() throws {
        for sort in Self.sorts {
            let query = ContactQuery().filter(.has([.telegram, .phone, .email]))
                .sorted(by: sort.key, descending: sort.descending).page(limit: 50)
            let plan = try Self.store.explain(query).plan.joined(separator: "\n")
            #expect(plan.contains("USING INDEX contact_on_"), "\(sort): \(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(sort): \(plan)")
        }
    }
}

/// The query semantics (docs/cli.md, "Querying"), in plain Swift over the
/// drafts.
struct ReferenceModel {
    /// Names and values full of SQL and LIKE metacharacters.
    static let awkwardDrafts = [
        ContactDraft(id: "meta-1", firstName: "Zoë", lastName: "O'Brien", company: "100% Pure_Co; --drop"),
        ContactDraft(id: "meta-2", company: "50%_off'; --", emails: [Email(value: "o'hara%_x@example.com")]),
        ContactDraft(id: "meta-3", firstName: "Percent", company: "P100 Pure Co"),
        ContactDraft(id: "meta-4", firstName: "Анна-Мария", lastName: "Сидорова", company: "Й"),
        {
            var draft = ContactDraft(id: "meta-5", firstName: "Jay", lastName: "Orchard", phones: [Phone(value: "+1 415 555 0100")])
            draft.note = "Sauna on Fridays; plays the bass"
            draft.jobTitle = "Müller & Söhne's orchard keeper"
            draft.relations = [Relation(type: "spouse", name: "Ёлка Smith")]
            draft.urls = [LabeledValue(type: "blog", value: "https://jay.example/orchard")]
            draft.socialProfiles = [SocialProfile(service: "mastodon", handle: "@jay@social.example")]
            return draft
        }(),
    ]

    let validated: [String: ContactDraft]
    let derived: [String: DerivedFields]

    init(drafts: [ContactDraft]) {
        var validated: [String: ContactDraft] = [:], derived: [String: DerivedFields] = [:]
        for draft in drafts {
            let clean = try! ContactValidator.validated(draft)
            validated[clean.id!] = clean
            derived[clean.id!] = DerivedFields(clean, regions: .default)
        }
        self.validated = validated
        self.derived = derived
    }

    func ids(matching filters: [ContactFilter], sortedBy sort: ContactSort) -> [String] {
        validated.values.filter { draft in filters.allSatisfy { matches(draft, $0) } }
            .map(\.id!)
            .sorted { precedes($0, $1, sort) }
    }

    private func matches(_ draft: ContactDraft, _ filter: ContactFilter) -> Bool {
        func fold(_ text: String) -> String { Collation.fold(text) }
        switch filter {
        case .has(let attributes):
            return ContactAttribute.allCases.allSatisfy { attribute in
                guard attributes.contains(attribute.bit) else { return true }
                switch attribute.holder {
                case .phones: return !draft.phones.isEmpty
                case .emails: return !draft.emails.isEmpty
                case .addresses: return !draft.addresses.isEmpty
                case .messenger(let service): return draft.messengers.contains { $0.service == service.rawValue }
                case .photo: return draft.photo != nil
                case .birthday: return draft.birthday != nil
                }
            }
        case .namePrefix(let text):
            // With the search keys (SearchKeyTests checks them against ICU).
            let words = [draft.firstName, draft.lastName, draft.company].compactMap { $0 }
                .flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "-" }) }.map { fold(String($0)) }
                + Oracle.foldedKeys(draft)
            let cyrillicLatin = Oracle.keys(draft).cyrillicLatin
            return fold(text).split(separator: " ").allSatisfy { prefix in
                Oracle.finds(String(prefix), in: words, cyrillicLatin: cyrillicLatin)
            }
        case .phone(let text):
            // The digits typed, or the E.164 digits of a valid number.
            let number = PhoneNumber(text, regions: .default)
            let wanted = [number.digits] + (number.e164.map { [$0.filter(\.isNumber)] } ?? [])
            return draft.phones.contains { phone in
                let held = PhoneNumber(phone.value, regions: .default).normalized
                return wanted.contains { held.contains($0) }
            }
        case .emailContains(let text):
            return draft.emails.contains { fold($0.value).contains(fold(text)) }
        case .companyContains(let text):
            return draft.company.map { fold($0).contains(fold(text)) } ?? false
        case .cityContains(let text):
            return draft.addresses.contains { fold($0.city).contains(fold(text)) }
        case .countryContains(let text):
            return draft.addresses.contains { fold($0.country).contains(fold(text)) }
        case .section(let label):
            return derived[draft.id!]!.sectionKey == label.uppercased()
        case .favorite:
            return draft.isFavorite
        case .group(let name):
            return draft.groups.contains { $0.lowercased() == name.lowercased() }
        case .books:
            // Every draft here is in the one book; books are checked in BookQueryTests.
            return true
        case .text(let text):
            let held = Array(Set(Self.searchTexts(draft).flatMap(Self.words) + Oracle.foldedKeys(draft)))
            let cyrillicLatin = Oracle.keys(draft).cyrillicLatin
            return Self.words(text).allSatisfy { wanted in
                Oracle.finds(wanted, in: held, cyrillicLatin: cyrillicLatin)
                    || (wanted.count >= 3 && wanted.allSatisfy { $0.isASCII && $0.isNumber } && matches(draft, .phone(wanted)))
            }
        }
    }

    /// Every text `--text` looks in (docs/cli.md, "Querying").
    static func searchTexts(_ draft: ContactDraft) -> [String] {
        let d = draft.details
        return ([draft.firstName, draft.middleName, draft.lastName, d.namePrefix, d.nameSuffix, d.phoneticFirstName,
                 d.phoneticMiddleName, d.phoneticLastName, d.formattedName, d.nickname, draft.company, d.department,
                 d.jobTitle, d.role, d.note] as [String?]).compactMap { $0 }
            + draft.emails.map(\.value) + draft.messengers.map(\.handle) + d.urls.map(\.value) + d.relations.map(\.name)
            + draft.addresses.flatMap { [$0.poBox, $0.street1, $0.street2, $0.city, $0.state, $0.zipcode, $0.country] }
            + d.socialProfiles.flatMap { [$0.handle, $0.url] }
    }

    /// Folded words: runs of letters and digits.
    static func words(_ text: String) -> [String] {
        Collation.fold(text).split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    private func precedes(_ a: String, _ b: String, _ sort: ContactSort) -> Bool {
        let x = derived[a]!, y = derived[b]!
        func bytes(_ data: Data) -> [UInt8] { Array(data) }
        func less(_ p: [UInt8], _ q: [UInt8]) -> Bool { p.lexicographicallyPrecedes(q) }
        let tieBreak: Bool = {
            if x.sortKey != y.sortKey { return less(bytes(x.sortKey), bytes(y.sortKey)) }
            return less(Array(a.utf8), Array(b.utf8))
        }()
        let field: (DerivedFields) -> Data?
        switch sort.key {
        case .name:
            let ascending: Bool
            if x.sortIndex != y.sortIndex { ascending = x.sortIndex < y.sortIndex }
            else { ascending = tieBreak }
            return sort.descending ? !ascending && a != b : ascending
        case .firstName: field = \.firstNameKey
        case .lastName: field = \.lastNameKey
        case .company: field = \.companyKey
        }
        switch (field(x), field(y)) {
        case (nil, nil): return tieBreak
        case (nil, _): return false
        case (_, nil): return true
        case let (p?, q?):
            if p == q { return tieBreak }
            return sort.descending ? less(bytes(q), bytes(p)) : less(bytes(p), bytes(q))
        }
    }
}
