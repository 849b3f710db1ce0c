import CICU
import Foundation
import GRDB
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

/// Search as people type in other scripts (docs/cli.md, "Querying"):
/// initial consonants, transliterations and Korean family-name spellings,
/// found by `--name` and `--text` through the indexes, against a brute
/// force whose transliterations ICU itself gives.
@Suite struct SearchKeyTests {

    // MARK: - The documented examples (docs/cli.md, "Querying")

    static let store: ContactStore = {
        let store = try! ContactStore.makeEmpty()
        var tanaka = ContactDraft(id: "tanaka", firstName: "太郎", lastName: "田中")
        tanaka.phoneticFirstName = "たろう"
        tanaka.phoneticLastName = "たなか"
        _ = try! store.add([
            ContactDraft(id: "hong", firstName: "길동", lastName: "홍"),
            ContactDraft(id: "kim", firstName: "민지", lastName: "김"),
            ContactDraft(id: "lee", firstName: "서연", lastName: "이"),
            ContactDraft(id: "park", firstName: "지훈", lastName: "박"),
            ContactDraft(id: "choi", firstName: "하나", lastName: "최"),
            ContactDraft(id: "ivanov", firstName: "Иван", lastName: "Иванов"),
            ContactDraft(id: "olga", firstName: "Ольга", lastName: "Соколова"),
            ContactDraft(id: "ivan", firstName: "Ivan", lastName: "Horvat"),
            ContactDraft(id: "zhang", firstName: "伟", lastName: "张"),
            ContactDraft(id: "anna", firstName: "Анна", lastName: "Жорина"),
            tanaka,
        ])
        return store
    }()

    static func ids(_ filter: ContactFilter) throws -> Set<String> {
        Set(try store.contacts(matching: ContactQuery().filter(filter)).map(\.id))
    }

    @Test(arguments: [
        ("ㅎㄱㄷ", ["hong"]), ("ㄱㄷ", ["hong"]), ("ㄱㅁ", ["kim"]), ("ㅁㅈ", ["kim"]),
        ("ㄱ", ["kim", "hong"]), ("ㅎ", ["hong", "choi"]), ("ㅎㄷ", []), ("ㄲ", []),
        ("ivanov", ["ivanov"]), ("ivan", ["ivanov", "ivan"]), ("olga", ["olga"]), ("sokol", ["olga"]),
        ("minji", ["kim"]), ("gildong", ["hong"]), ("tanaka", ["tanaka"]), ("zhang", ["zhang"]),
        ("kim", ["kim"]), ("gim", ["kim"]), ("lee", ["lee"]), ("park", ["park"]), ("choi", ["choi"]),
        ("иван", ["ivanov", "ivan"]), ("иванов", ["ivanov"]), ("хорв", ["ivan"]), ("ивановa", []),
        // A Cyrillic word finds Cyrillic names by their letters alone, not
        // again through the Latin keys they have for other scripts' words.
        ("ян", []), ("зо", []), ("ан", ["anna"]), ("жор", ["anna"]), ("anna", ["anna"]), ("zor", ["anna"]),
        ("ким", ["kim"]),
    ])
    func theSpecsExamplesAreFoundByNameAndText(query: String, expected: [String]) throws {
        #expect(try Self.ids(.namePrefix(query)) == Set(expected), "--name \(query)")
        #expect(try Self.ids(.text(query)) == Set(expected), "--text \(query)")
    }

    @Test func keysAreAndedWithTheOtherFiltersAndWords() throws {
        #expect(try Self.ids(.namePrefix("ivan ivanov")) == ["ivanov"])
        #expect(try Self.ids(.text("иван horvat")) == ["ivan"])
        #expect(try Self.ids(.text("ㄱㄷ hong")) == ["hong"])
        let favorites = ContactQuery().filter(.namePrefix("ivan")).filter(.favorite)
        #expect(try Self.store.contacts(matching: favorites).isEmpty)
    }

    /// The keys never decide the order or the section: a contact files as
    /// its name does, and sorts by it.
    @Test func keysChangeNeitherSortNorSection() throws {
        let contacts = try Self.store.contacts(matching: ContactQuery())
        let hong = try #require(contacts.first { $0.id == "hong" })
        #expect(hong.sectionKey == "ㅎ")
        let ivanov = try #require(contacts.first { $0.id == "ivanov" })
        #expect(ivanov.sectionKey == "И")
        let names = contacts.map(\.sortName)
        #expect(names == names.sorted(by: Collation.precedes))
    }

    /// No export carries a key: the Latin `gildong` and the consonants
    /// `ㅎㄱㄷ` appear in neither JSON nor vCard.
    @Test func noExportCarriesAKey() throws {
        let hong = try #require(try Self.store.contact(id: "hong"))
        for text in [hong.jsonText, hong.vCard(version: .v3), hong.vCard(version: .v4)] {
            // The consonants as typed and as stored (conjoining jamo).
            let keys = ["gildong", "ㅎㄱㄷ", "ㅎㄱㄷ".decomposedStringWithCompatibilityMapping]
            #expect(text.contains("길동") && !keys.contains(where: text.contains), "\(text)")
        }
    }

    /// A plan test: an initial-consonant and a transliteration query find
    /// their contacts through `nameWord` or the search index, reading no
    /// table of contacts whole.
    @Test func keyQueriesReadTheIndexesNotTheContacts() throws {
        for filter in [ContactFilter.namePrefix("ㄱㅁ"), .namePrefix("иван"), .text("ㄱㅁ"), .text("иван")] {
            let statement = ContactQuery().filter(filter).page(limit: 50).selectStatement(columns: "contact.id")
            let plan = try Self.store.read { db in try QueryPlanner.explain(statement.sql, statement.arguments, db) }
            let text = plan.joined(separator: "\n")
            let scans = plan.map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 == "SCAN contact" || $0.hasPrefix("SCAN contact ") }
            #expect(scans.allSatisfy { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") }, "\(filter): \(text)")
            #expect(text.contains("nameWord") || text.contains("contactSearch"), "\(filter): \(text)")
        }
    }

    /// A rebuild after ICU's version changes derives the keys again: here
    /// they are lost behind the engine's back and the stored version made
    /// stale, and the next open finds them once more.
    @Test func aCollationVersionChangeRebuildsTheKeys() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("keys.sqlite").path
        var options = ContactStore.Options()
        options.seedsOnFirstOpen = false
        do {
            let store = try ContactStore.open(at: path, options: options)
            _ = try store.add(ContactDraft(id: "hong", firstName: "길동", lastName: "홍"))
        }
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "DELETE FROM nameWord")
            try db.execute(sql: "UPDATE contact SET nameWords = '', searchWords = ''")
            try db.execute(sql: "UPDATE setting SET value = 'icu 0.0' WHERE key = ?", arguments: [Settings.collationVersionKey])
        }
        let store = try ContactStore.open(at: path, options: options)
        #expect(try store.contacts(matching: ContactQuery().filter(.namePrefix("ㅎㄱ"))).map(\.id) == ["hong"])
        #expect(try store.contacts(matching: ContactQuery().filter(.text("gildong"))).map(\.id) == ["hong"])
    }

    // MARK: - Against brute force

    /// 5,000 random names in Hangul, Cyrillic, Han with kana readings and
    /// Latin (some the transliterations of Cyrillic ones); the prefixes of
    /// 1–4 initial consonants and of 2–6 letters of each Latin key, and
    /// Cyrillic prefixes, of which a sample is asked; `--name` and `--text`
    /// find exactly the contacts a brute force over every contact's words
    /// and ICU's transliterations finds.
    @Test func nameAndTextMatchBruteForceWithICUAsTheOracle() throws {
        var random = SplitMix64(seed: 48)
        let drafts = (0..<5_000).map { RandomNames.draft(number: $0, &random) }
        let store = try ContactStore.makeEmpty()
        _ = try store.add(drafts)

        // Every prefix of every word a contact may be found by.
        var nameIndex: [String: Set<String>] = [:], textIndex: [String: Set<String>] = [:]
        // The Latin keys of Cyrillic words, which Latin queries find and
        // Cyrillic ones do not.
        var cyrillicKeyIndex: [String: Set<String>] = [:]
        var queries: Set<String> = []
        for draft in drafts {
            let id = draft.id!
            let keys = Oracle.keys(draft)
            for initials in keys.initials {
                let scalars = Array(initials.unicodeScalars)
                for length in 1...min(4, scalars.count) { queries.insert(String(String.UnicodeScalarView(scalars[..<length]))) }
            }
            for latin in keys.latin + keys.cyrillicLatin where latin.count >= 2 {
                for length in 2...min(6, latin.count) { queries.insert(String(latin.prefix(length))) }
            }
            for word in keys.cyrillic where word.count >= 2 { queries.insert(String(word.prefix(3))) }
            let folded = Oracle.foldedKeys(draft)
            for word in Oracle.nameWords(draft) + folded { Oracle.addPrefixes(of: word, for: id, to: &nameIndex) }
            for word in Oracle.textWords(draft) + folded { Oracle.addPrefixes(of: word, for: id, to: &textIndex) }
            for word in keys.cyrillicLatin { Oracle.addPrefixes(of: word, for: id, to: &cyrillicKeyIndex) }
        }
        // Some 22,000 queries: all of them take 27 s of processor time in a
        // debug build, so a random sample, the same each run.
        var sample = Array(queries.sorted())
        sample.shuffle(using: &random)
        var checked = 0
        for query in sample.prefix(Self.sampledQueries) {
            let folded = Collation.fold(query)
            let latin = Oracle.cyrillicQueryLatin(folded)
            let crossScript = latin == nil ? cyrillicKeyIndex[folded, default: []] : []
            let expectedByName = nameIndex[folded, default: []].union(latin.map { nameIndex[$0, default: []] } ?? []).union(crossScript)
            let expectedByText = textIndex[folded, default: []].union(latin.map { textIndex[$0, default: []] } ?? []).union(crossScript)
            let byName = Set(try store.contacts(matching: ContactQuery().filter(.namePrefix(query))).map(\.id))
            let byText = Set(try store.contacts(matching: ContactQuery().filter(.text(query))).map(\.id))
            #expect(byName == expectedByName, "--name \(query)")
            #expect(byText == expectedByText, "--text \(query)")
            checked += 1
        }
        #expect(checked == Self.sampledQueries && queries.count > 20_000)
    }

    static let sampledQueries = 8_000
}

/// The reference: each script's words put through ICU's own transforms,
/// Hangul's initial consonants through Unicode's canonical decomposition.
enum Oracle {
    struct Keys {
        var initials: [String] = [], latin: [String] = [], family: [String] = [], cyrillic: [String] = []
        /// The Latin words of Cyrillic words.
        var cyrillicLatin: [String] = []
    }

    static func keys(_ draft: ContactDraft) -> Keys {
        var keys = Keys()
        let given = [draft.firstName, draft.middleName].compactMap { $0 }.joined()
        let phoneticGiven = [draft.phoneticFirstName, draft.phoneticMiddleName].compactMap { $0 }.joined()
        for name in [(draft.lastName ?? "") + given, given, (draft.phoneticLastName ?? "") + phoneticGiven, phoneticGiven,
                     draft.nickname ?? ""] {
            if let initials = initials(name) { keys.initials.append(initials) }
        }
        let texts = [draft.firstName, draft.middleName, draft.lastName, draft.company, draft.nickname,
                     draft.phoneticFirstName, draft.phoneticMiddleName, draft.phoneticLastName].compactMap { $0 }
        for word in texts.flatMap({ $0.split(whereSeparator: { $0.isWhitespace || $0 == "-" }) }) {
            if word.unicodeScalars.contains(where: { (0x400...0x4FF).contains($0.value) }) {
                keys.cyrillic.append(word.lowercased())
                keys.cyrillicLatin += latinWords(String(word))
            } else {
                keys.latin += latinWords(String(word))
            }
        }
        for family in [draft.lastName, draft.phoneticLastName].compactMap({ $0 }) {
            keys.family += KoreanFamilyNames.spellings[family] ?? []
        }
        return keys
    }

    /// Every key but the Latin words of Cyrillic ones, folded as the name
    /// words are.
    static func foldedKeys(_ draft: ContactDraft) -> [String] {
        let keys = keys(draft)
        return (keys.initials + keys.latin + keys.family).map(Collation.fold)
    }

    /// The leading Hangul syllables' initial consonants: each syllable's
    /// first jamo under NFD (U+1100…U+1112), as the compatibility jamo
    /// whose NFKD is that jamo.
    static func initials(_ name: String) -> String? {
        let compatibility = Dictionary(uniqueKeysWithValues: (0x3131...0x314E).compactMap(UnicodeScalar.init).compactMap { jamo in
            String(jamo).decomposedStringWithCompatibilityMapping.unicodeScalars.first.map { ($0, jamo) }
        })
        var result = String.UnicodeScalarView()
        for character in name.filter({ !$0.isWhitespace }) {
            guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                  scalar.properties.generalCategory == .otherLetter,
                  let first = String(character).decomposedStringWithCanonicalMapping.unicodeScalars.first,
                  (0x1100...0x1112).contains(first.value), let jamo = compatibility[first] else { break }
            result.append(jamo)
        }
        return result.isEmpty ? nil : String(result)
    }

    /// ICU's transliteration of one word: Han by `Han-Latin/Names`, any
    /// other script by `Any-Latin`, then `Latin-ASCII`; lower case, cut at
    /// spaces and hyphens, letters and digits kept.
    static func latinWords(_ word: String) -> [String] {
        let isHan = word.unicodeScalars.contains { $0.properties.isIdeographic }
        let latin = transliterate(word, isHan ? "Han-Latin/Names; Latin-ASCII" : "Any-Latin; Latin-ASCII")
        return latin.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "-" }).compactMap { piece in
            let kept = piece.filter { $0.isLetter || $0.isNumber }
            return kept.isEmpty ? nil : kept
        }
    }

    /// Whether a folded query word begins one of a contact's `words` (its
    /// own and its keys but the Latin ones of Cyrillic words), or a
    /// Cyrillic one's Latin form does; or, for any other query word, the
    /// Latin key of one of its Cyrillic words (`cyrillicLatin`).
    static func finds(_ wanted: String, in words: [String], cyrillicLatin: [String]) -> Bool {
        func begins(_ form: String, _ list: [String]) -> Bool { !form.isEmpty && list.contains { $0.hasPrefix(form) } }
        if let latin = cyrillicQueryLatin(wanted) { return begins(wanted, words) || begins(latin, words) }
        return begins(wanted, words) || begins(wanted, cyrillicLatin)
    }

    /// A Cyrillic query word's Latin form, nil for any other word.
    static func cyrillicQueryLatin(_ word: String) -> String? {
        guard word.unicodeScalars.contains(where: { (0x400...0x4FF).contains($0.value) }) else { return nil }
        return latinWords(word).joined()
    }

    static func transliterate(_ text: String, _ id: String) -> String {
        let utf16 = Array(text.utf16)
        var result = [UInt16](repeating: 0, count: 16 * utf16.count + 64)
        let size = Int(cicu_transliterate(id, utf16, Int32(utf16.count), &result, Int32(result.count)))
        precondition(size >= 0 && size <= result.count)
        return String(decoding: result[..<size], as: UTF16.self)
    }

    /// The folded words `--name` has always matched: the names', cut at
    /// spaces and hyphens.
    static func nameWords(_ draft: ContactDraft) -> [String] {
        [draft.firstName, draft.middleName, draft.lastName, draft.company, draft.nickname,
         draft.phoneticFirstName, draft.phoneticMiddleName, draft.phoneticLastName].compactMap { $0 }
            .flatMap { Text.words(Collation.fold($0)).map(String.init) }
    }

    /// The folded words `--text` has always matched, of a contact holding
    /// only names.
    static func textWords(_ draft: ContactDraft) -> [String] {
        [draft.firstName, draft.middleName, draft.lastName, draft.company, draft.nickname,
         draft.phoneticFirstName, draft.phoneticMiddleName, draft.phoneticLastName].compactMap { $0 }
            .flatMap(Text.searchWords)
    }

    static func addPrefixes(of word: String, for id: String, to index: inout [String: Set<String>]) {
        var prefix = String.UnicodeScalarView()
        for scalar in word.unicodeScalars {
            prefix.append(scalar)
            index[String(prefix), default: []].insert(id)
        }
    }
}

/// Random names in the scripts address books hold.
enum RandomNames {
    static let cyrillic = Array("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")
    static let latin = Array("abcdefghijklmnopqrstuvwxyzéüøßłñ")
    static let kana = (0x3041...0x3093).compactMap(UnicodeScalar.init).map(Character.init)
        + (0x30A1...0x30F3).compactMap(UnicodeScalar.init).map(Character.init)

    static func draft(number: Int, _ random: inout SplitMix64) -> ContactDraft {
        var draft = ContactDraft(id: "r\(number)")
        switch random.below(5) {
        case 0:
            let families = Array(KoreanFamilyNames.spellings.keys).sorted()
            draft.lastName = random.below(2) == 0 ? families[random.below(families.count)] : syllables(1, &random)
            draft.firstName = syllables(1 + random.below(2), &random)
        case 1:
            draft.lastName = word(cyrillic, &random).capitalized
            draft.firstName = word(cyrillic, &random).capitalized
        case 2:
            draft.lastName = han(1, &random)
            draft.firstName = han(1 + random.below(2), &random)
            if random.below(2) == 0 {
                draft.phoneticLastName = String((0..<2 + random.below(3)).map { _ in kana[random.below(kana.count)] })
                draft.phoneticFirstName = String((0..<2 + random.below(3)).map { _ in kana[random.below(kana.count)] })
            }
        case 3:
            // A Latin name as ICU writes a Cyrillic one, for Cyrillic queries to find.
            draft.firstName = Oracle.transliterate(word(cyrillic, &random), "Any-Latin; Latin-ASCII").capitalized
            draft.lastName = word(latin, &random).capitalized
        default:
            draft.firstName = word(latin, &random).capitalized
            draft.lastName = word(latin, &random).capitalized
        }
        if random.below(10) == 0 { draft.nickname = syllables(2, &random) }
        return draft
    }

    static func word(_ letters: [Character], _ random: inout SplitMix64) -> String {
        String((0..<2 + random.below(6)).map { _ in letters[random.below(letters.count)] })
    }

    /// Hangul syllables, weighted to the first initials so that prefixes share.
    static func syllables(_ count: Int, _ random: inout SplitMix64) -> String {
        String(String.UnicodeScalarView((0..<count).compactMap { _ in
            UnicodeScalar(0xAC00 + random.below(19) * 588 + random.below(21) * 28 + (random.below(3) == 0 ? random.below(28) : 0))
        }))
    }

    static func han(_ count: Int, _ random: inout SplitMix64) -> String {
        String(String.UnicodeScalarView((0..<count).compactMap { _ in UnicodeScalar(0x4E00 + random.below(0x5000)) }))
    }
}
