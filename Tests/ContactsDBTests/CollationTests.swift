import ContactsDBTestSupport
import Foundation
import GRDB
import Testing
@testable import ContactsDB

@Suite struct CollationTests {
    /// Names across Latin with diacritics, Cyrillic with Ё, Hangul, Greek,
    /// and names that start with digits or symbols.
    static let names = [
        // Latin, with diacritics and letters of their own
        "Aaron", "Abel", "Åberg", "Ábrahám", "Adams", "Ærø", "Ångström", "Anna", "anna", "ANNA", "Anne",
        "Ánh", "Becker", "Björk", "Brontë", "Çelik", "Chávez", "Ćosić", "Czerny", "Dąbrowski", "Dvořák",
        "Đorđević", "Eriksson", "Éluard", "Ëlla", "Fabre", "García", "Gödel", "Hämäläinen", "Hernández",
        "Ibáñez", "Iñárritu", "Jørgensen", "Kovač", "Łukasz", "Lopez", "López", "Mäkinen", "Müller",
        "Mueller", "Muller", "Nuñez", "Nunez", "Núñez", "O'Brien", "Obrien", "Øster", "Østergaard",
        "Pérez", "Quiñones", "Røed", "Šimek", "Schmidt", "Smith", "Søren", "Strauß", "Strauss", "Þórsson",
        "Türk", "Uçar", "Vázquez", "Wałęsa", "Xavier", "Yılmaz", "Zoë", "Zola", "Žižek",
        // Cyrillic, with Ё beside Е and Й apart from И
        "Абрамов", "Алёшин", "Алешин", "Бёрнс", "Берг", "Ёлкин", "Елкин", "Ельцин", "Ёжиков", "Ежов",
        "Жуков", "Иванов", "Йорк", "Иорк", "Ибрагимов", "Кузнецов", "Лебедев", "Морозов", "Новиков", "Орлов",
        "Петров", "Рябов", "Соколов", "Тимофеев", "Ушаков", "Фёдоров", "Федоров", "Хромов", "Цветков",
        "Чернов", "Шевченко", "Щукин", "Эйзенштейн", "Юдин", "Яковлев", "Іваненко", "Ґудзь", "Ўладзімір",
        // Hangul
        "가나", "강", "김", "까치", "나", "노", "다", "도", "똑", "라", "류", "마", "박", "빵", "서", "쌍",
        "이", "조", "짱", "최", "카", "타", "파", "하", "홍",
        // Greek
        "Αλέξανδρος", "Άννα", "Βασίλης", "Γιώργος", "Δημήτρης", "Ελένη", "Ζωή", "Θεόδωρος", "Ιωάννης",
        "Κώστας", "Μαρία", "Νίκος", "Ξένια", "Όλγα", "Παύλος", "Σοφία", "Τάσος", "Φώτης", "Χρήστος", "Ωραία",
        // Digits, symbols, other scripts
        "007", "1st Avenue", "24/7 Service", "3M", "42", "#hashtag", "@home", "(Unknown)", "_underscore",
        "-dash", "李", "山田", "אברהם", "محمد",
    ]

    static let store: ContactStore = {
        let store = try! ContactStore.makeEmpty()
        try! store.add(names.enumerated().map { ContactDraft(id: String(format: "n%03d", $0), lastName: $1) })
        return store
    }()

    static func name(_ id: String) -> String { names[Int(id.dropFirst())!] }

    @Test func thereAreEnoughNames() {
        #expect(Self.names.count >= 150)
    }

    @Test(arguments: [false, true])
    func lastNameOrderAgreesWithICU(_ descending: Bool) throws {
        let query = ContactQuery().sorted(by: .lastName, descending: descending)
        let stored = try Self.store.ids(matching: query)
        // ICU's comparison, then ties by id (docs/cli.md, "Querying").
        let expected = Self.names.indices.map { String(format: "n%03d", $0) }.sorted { a, b in
            let order = Collation.compare(Self.name(a), Self.name(b))
            if order == 0 { return a < b }
            return descending ? order > 0 : order < 0
        }
        #expect(stored.map(Self.name) == expected.map(Self.name))
    }

    @Test func alphabetsFollowEachOtherAsInICUsRootOrder() {
        let order = ["Zola", "Αλέξανδρος", "Ωραία", "Абрамов", "Яковлев", "가나", "홍"]
        for (earlier, later) in zip(order, order.dropFirst()) {
            #expect(Collation.compare(earlier, later) < 0, "\(earlier) < \(later)")
        }
        #expect(Collation.compare("Ёлкин", "Елкин") == 0)
        #expect(Collation.compare("Йорк", "Иорк") != 0)
        #expect(Collation.compare("Müller", "muller") == 0)
        #expect(Collation.compare("42", "Aaron") < 0)
    }

    /// Section labels as ICU's AlphabeticIndex files these names (English
    /// with Greek, Russian and Korean labels; other buckets as "#").
    static let sections: [(String, String)] = [
        ("Ångström", "A"), ("Ærø", "A"), ("Ábrahám", "A"), ("Çelik", "C"), ("Đorđević", "D"),
        ("Łukasz", "L"), ("Øster", "O"), ("Strauß", "S"), ("Þórsson", "Z"), ("Žižek", "Z"),
        ("Ёлкин", "Е"), ("Елкин", "Е"), ("Йорк", "Й"), ("Щукин", "Щ"), ("Іваненко", "И"), ("Ґудзь", "Г"),
        ("Эйзенштейн", "Э"), ("Яковлев", "Я"),
        ("김", "ㄱ"), ("까치", "ㄱ"), ("똑", "ㄷ"), ("빵", "ㅂ"), ("쌍", "ㅅ"), ("짱", "ㅈ"), ("홍", "ㅎ"),
        ("Άννα", "Α"), ("Ωραία", "Ω"), ("Όλγα", "Ο"),
        ("007", "#"), ("#hashtag", "#"), ("(Unknown)", "#"), ("李", "#"), ("אברהם", "#"), ("محمد", "#"),
    ]

    @Test(arguments: sections.indices)
    func sectionsAreICUsBuckets(_ index: Int) {
        let (name, label) = Self.sections[index]
        #expect(Collation.section(of: name).key == label, "\(name)")
    }

    @Test func theIndexReadsLatinGreekCyrillicHangulThenOther() {
        let latin = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
        let greek = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ".map(String.init)
        let russian = "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЫЭЮЯ".map(String.init)
        let korean = "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ".map(String.init)
        #expect(SectionIndex.labels == latin + greek + russian + korean + ["#"])
    }

    @Test func theDefaultOrderReadsSectionBySectionWithOtherLast() throws {
        let contacts = try Self.store.contacts(matching: ContactQuery())
        #expect(contacts.map(\.sortIndex) == contacts.map(\.sortIndex).sorted())
        #expect(contacts.last?.sectionKey == "#")
        for (a, b) in zip(contacts, contacts.dropFirst()) where a.sectionKey == b.sectionKey {
            #expect(Collation.compare(a.sortName, b.sortName) <= 0, "\(a.sortName) before \(b.sortName)")
        }
        let reversed = try Self.store.ids(matching: ContactQuery().sorted(by: .name, descending: true))
        #expect(reversed == contacts.map(\.id).reversed())
    }

    /// The name filter folds text; this checks that folding agrees with
    /// ICU's primary equality on every pair of names here.
    @Test func foldingAgreesWithICUsPrimaryEquality() {
        var disagreements: [String] = []
        for a in Self.names {
            for b in Self.names where a < b {
                let foldedEqual = Collation.fold(a) == Collation.fold(b)
                let icuEqual = Collation.compare(a, b) == 0
                if foldedEqual != icuEqual { disagreements.append("\(a) / \(b): ICU \(icuEqual ? "=" : "≠")") }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    /// Every letter of the Latin, Greek, Cyrillic and Hangul blocks (each
    /// case and accented form a letter of its own) folds to text ICU holds
    /// equal to it, and letters ICU holds equal fold alike: so two letters
    /// fold alike exactly when ICU finds them equal at primary strength.
    @Test func foldingIsICUsPrimaryEqualityForEveryLetter() {
        let blocks: [ClosedRange<UInt32>] = [
            0x41...0x24F, 0x1E00...0x1EFF,  // Latin, with its extensions
            0x370...0x3FF, 0x1F00...0x1FFF,  // Greek
            0x400...0x52F,  // Cyrillic
            0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7A3,  // Hangul jamo and syllables
        ]
        let letters = blocks.joined().compactMap(UnicodeScalar.init)
            .filter { $0.properties.isAlphabetic && $0.properties.generalCategory != .nonspacingMark }
            .map(String.init)
        var notEqual: [String] = [], foldsByKey: [Data: Set<String>] = [:]
        for letter in letters {
            let folded = Collation.fold(letter)
            if Collation.compare(folded, letter) != 0 { notEqual.append("\(letter) → \(folded)") }
            foldsByKey[Collation.key(letter), default: []].insert(folded)
        }
        let split = foldsByKey.values.filter { $0.count > 1 }.map { $0.sorted().joined(separator: " ≠ ") }
        #expect(letters.count > 12_000)
        #expect(notEqual.isEmpty, "folded to text ICU does not hold equal: \(notEqual.prefix(20))")
        #expect(split.isEmpty, "letters ICU holds equal fold apart: \(split.prefix(20))")
    }

    @Test(arguments: [
        ("Łukasz", "lukasz"), ("Ødegaard", "odegaard"), ("Đorđe", "dorde"), ("Æsop", "aesop"),
        ("Strauß", "STRAUSS"), ("Ёлкин", "елкин"), ("Müller", "mul"), ("Ἀθηνᾶ", "αθη"),
    ])
    func theNameFilterFindsWhatICUHoldsEqual(_ stored: String, _ typed: String) throws {
        let store = try ContactStore.makeEmpty()
        let id = try store.add(ContactDraft(lastName: stored)).id
        try store.add(ContactDraft(lastName: "Иванов"))
        #expect(try store.ids(matching: ContactQuery().filter(.namePrefix(typed))) == [id])
    }

    @Test func lettersICUKeepsApartStayApart() throws {
        let store = try ContactStore.makeEmpty()
        let short = try store.add(ContactDraft(lastName: "Йодов")).id
        let plain = try store.add(ContactDraft(lastName: "Иванов")).id
        #expect(try store.ids(matching: ContactQuery().filter(.namePrefix("й"))) == [short])
        #expect(try store.ids(matching: ContactQuery().filter(.namePrefix("и"))) == [plain])
    }

    @Test func keysFromAnotherCollationAreRecomputedOnOpen() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("old-keys.sqlite")
        var options = ContactStore.Options()
        options.seedsOnFirstOpen = false
        let store = try ContactStore.open(at: path, options: options)
        try store.add(Self.names.prefix(30).map { ContactDraft(lastName: $0) })
        let good = try store.read { db in try Row.fetchAll(db, sql: "SELECT id, sortKey, sectionKey, sortIndex FROM contact ORDER BY id") }
        try store.writer.write { db in
            try db.execute(sql: "UPDATE contact SET sortKey = x'00', sectionKey = '?', sortIndex = 0")
            try db.execute(sql: "UPDATE setting SET value = 'icu 1.0/old' WHERE key = 'collationVersion'")
        }

        let reopened = try ContactStore.open(at: path, options: options)
        #expect(reopened.openReport.reindexedContacts == 30)
        #expect(try reopened.collationVersions().stored == DerivedFields.version)
        let fixed = try reopened.read { db in try Row.fetchAll(db, sql: "SELECT id, sortKey, sectionKey, sortIndex FROM contact ORDER BY id") }
        #expect(fixed == good)
        #expect(try ContactStore.open(at: path, options: options).openReport.reindexedContacts == nil)
    }

    /// Reindexing is a change: the contact gets a new revision, and
    /// nothing else differs from what it was.
    @Test func reindexRecomputesEveryDerivedColumnAndKeepsTimestamps() throws {
        let store = try ContactStore.makeEmpty()
        let added = try store.add(ContactDraft(firstName: "Иван", lastName: "Ёлкин", phones: [Phone(value: "8 912 345 67 89")]))
        try store.writer.write { db in
            try db.execute(sql: "UPDATE contact SET sortKey = x'00', lastNameKey = NULL, attributes = 0")
            try db.execute(sql: "UPDATE phone SET normalized = ''")
            try db.execute(sql: "DELETE FROM nameWord")
        }
        #expect(try store.reindex() == 1)
        var reindexed = try #require(try store.contact(id: added.id))
        #expect(reindexed.revision > added.revision)
        reindexed.revision = added.revision
        #expect(reindexed == added)
        #expect(try store.ids(matching: ContactQuery().filter(.namePrefix("елк")).filter(.phone("+79123456789"))
            .filter(.has(.phone))) == [added.id])
    }

    /// ASCII text is cut into words byte by byte: the same words as the
    /// character-level rules give, on random text of letters, digits,
    /// spaces, tabs, CR LF, hyphens and punctuation.
    @Test func asciiTextIsCutIntoTheSameWords() {
        let alphabet = Array("aZ9 -\t\r\n.@_'/+(x")
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % bound
        }
        for _ in 0..<5_000 {
            let text = String((0..<next(25)).map { _ in alphabet[next(alphabet.count)] })
            #expect(Text.words(text) == text.split(whereSeparator: { $0.isWhitespace || $0 == "-" }), "\(text)")
            let unicode61 = text.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
            #expect(Text.searchWords(text) == unicode61, "\(text)")
        }
    }
}
