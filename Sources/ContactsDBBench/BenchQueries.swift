import CPhoneNumber
import ContactsDB
import ContactsDBSynthetic
import Foundation

/// The standard queries of `bench`: each once through the library's public
/// API (results decoded into the library's values) and once as hand-written
/// SQL on the raw C API, reading the same columns into Swift values.
package struct BenchQuery {
    package var name: String
    package var title: String
    /// Runs the query through the library; returns how many rows it got.
    package var engine: () throws -> Int
    /// Runs the same work on the raw C API; returns how many rows it got.
    package var raw: () -> Int
}

package enum BenchQueries {

    /// A Russian number of the data set written another way, and 4 digits
    /// from its middle.
    package struct PhoneProbes {
        var otherFormat = "8 (900) 0000000"
        var middleDigits = "0000"
    }

    /// A reference number of the data set's notes, which a handful of
    /// contacts (or one) hold: the first note's.
    package static func rareWord(contacts: Int, seed: UInt64) -> String {
        for draft in SyntheticContacts(count: contacts, seed: seed) {
            if let word = draft.note?.split(separator: " ").last(where: { $0.hasPrefix("ref") }) { return String(word) }
        }
        return "ref12345"
    }

    package static func phoneProbes(contacts: Int, seed: UInt64) -> PhoneProbes {
        for draft in SyntheticContacts(count: contacts, seed: seed) {
            for phone in draft.phones where phone.value.hasPrefix("+7 ") {
                let national = phone.value.filter(\.isNumber).dropFirst()
                return PhoneProbes(
                    otherFormat: "8 (\(national.prefix(3))) \(national.dropFirst(3))",
                    middleDigits: String(national.dropFirst(3).prefix(4)))
            }
        }
        return PhoneProbes()
    }

    /// A word of the synthetic notes, in a third of them.
    static let commonWord = "call"

    /// Initial consonants (ㄱ…: 김, 강, 권; ㅁ: 민준), which find a few
    /// Hangul names, and the folded key they are stored as: the conjoining
    /// jamo that stand for the compatibility ones (NFKD).
    static let initialConsonants = "ㄱㅁ"
    static let initialConsonantsKey = initialConsonants.decomposedStringWithCompatibilityMapping
    /// A Latin word that finds Cyrillic names (Иванов, Иванова) by their
    /// transliteration.
    static let transliterated = "ivanov"

    /// - parameter unified: whether to add the unified queries (U1, U3, U4,
    ///   U8 and U9–U14, ``unified(store:sql:)``), for a database with links.
    package static func make(store: ContactStore, raw: RawSQLite, phone: PhoneProbes, rareWord: String, unified: Bool = false) throws -> [BenchQuery] {
        let page = ContactQuery().page(limit: 50)
        let q2 = ContactQuery().filter(.has([.phone, .email])).sorted(by: .lastName).page(limit: 50)
        let q3Filter = ContactQuery().filter(.has([.telegram, .whatsapp, .phone, .email]))
        let q3 = q3Filter.sorted(by: .firstName, descending: true).page(limit: 50)
        let q5 = ContactQuery().filter(.namePrefix("an")).page(limit: 50)
        let q6 = ContactQuery().filter(.phone(phone.otherFormat)).page(limit: 50)
        let q7 = ContactQuery().filter(.phone(phone.middleDigits)).page(limit: 50)
        let q11 = ContactQuery().filter(.text(commonWord)).page(limit: 50)
        let q12 = ContactQuery().filter(.text(rareWord)).page(limit: 50)
        let q13 = ContactQuery().filter(.namePrefix(initialConsonants)).page(limit: 50)
        let q14 = ContactQuery().filter(.namePrefix(transliterated)).page(limit: 50)
        let book = try store.books().first(where: \.isDefault)?.name ?? Book.firstName
        let q15 = ContactQuery().filter(.books([book])).page(limit: 50)

        let contacts = { (query: ContactQuery, children: Bool) in
            { try store.contacts(matching: query, includingChildren: children).count }
        }
        let sql = try RawQueries(raw: raw)
        return [
            BenchQuery(name: "Q1", title: "first page of 50, default order",
                       engine: contacts(page, false), raw: sql.page),
            BenchQuery(name: "Q2", title: "phone ∧ email, last name A→Z, 50",
                       engine: contacts(q2, false), raw: sql.phoneAndEmail),
            BenchQuery(name: "Q3", title: "telegram ∧ whatsapp ∧ phone ∧ email, first name Z→A, 50",
                       engine: contacts(q3, false), raw: sql.fourAttributes),
            BenchQuery(name: "Q4", title: "count of Q3's filter",
                       engine: { try store.count(matching: q3Filter) }, raw: sql.fourAttributeCount),
            BenchQuery(name: "Q5", title: "name prefix \"an\", 50, default order",
                       engine: contacts(q5, false), raw: { sql.namePrefix("an") }),
            BenchQuery(name: "Q6", title: "phone \"\(phone.otherFormat)\", 50",
                       engine: contacts(q6, false), raw: { sql.wholePhone(typed: phone.otherFormat) }),
            BenchQuery(name: "Q7", title: "phone \"\(phone.middleDigits)\" (4 middle digits), 50",
                       engine: contacts(q7, false), raw: { sql.phone(typed: phone.middleDigits) }),
            BenchQuery(name: "Q8", title: "section index with counts",
                       engine: { try store.sections(matching: ContactQuery()).count }, raw: sql.sections),
            BenchQuery(name: "Q9", title: "Q1's page with all children",
                       engine: contacts(page, true), raw: sql.pageWithChildren),
            BenchQuery(name: "Q10", title: "Q1's page with thumbnails",
                       engine: { try store.contactsWithThumbnails(matching: page, includingChildren: false).count },
                       raw: sql.pageWithThumbnails),
            BenchQuery(name: "Q11", title: "text \"\(commonWord)\" (a common word), 50",
                       engine: contacts(q11, false), raw: { sql.commonText(commonWord) }),
            BenchQuery(name: "Q12", title: "text \"\(rareWord)\" (a rare word), 50",
                       engine: contacts(q12, false), raw: { sql.rareText(rareWord) }),
            BenchQuery(name: "Q13", title: "name \"\(initialConsonants)\" (initial consonants), 50",
                       engine: contacts(q13, false), raw: { sql.namePrefix(initialConsonantsKey) }),
            BenchQuery(name: "Q14", title: "name \"\(transliterated)\" (Cyrillic names by transliteration), 50",
                       engine: contacts(q14, false), raw: { sql.namePrefix(transliterated) }),
            BenchQuery(name: "Q15", title: "Q1 in the book \"\(book)\" (--book)",
                       engine: contacts(q15, false), raw: { sql.bookPage(book) }),
        ] + (unified ? try Self.unified(store: store, sql: sql) : [])
    }
}

/// Hand-written SQL for each query, on the raw C API, prepared once.
struct RawQueries {
    let raw: RawSQLite
    private let pageStatement, phoneAndEmailStatement, fourAttributesStatement, countStatement: RawSQLite.Statement
    private let phoneStatement, sectionsStatement, bookPageStatement, holdsKeyStatement: RawSQLite.Statement
    /// For a word alone, and with its marked form.
    private let nameStatements, rareNameStatements, commonTextStatements: [RawSQLite.Statement]
    /// For one number, and for two.
    private let wholePhoneStatements: [RawSQLite.Statement]
    private let childStatements: [RawSQLite.Statement]
    private let thumbnailStatement, rareTextStatement: RawSQLite.Statement
    private let nameCountStatement, textCountStatement, contactCountStatement, regionsStatement: RawSQLite.Statement
    private let beginStatement, commitStatement: RawSQLite.Statement
    /// The unified counts' (U4, U8); the unified pages prepare their own.
    private let unifiedStatements: [RawSQLite.Statement]

    /// Runs a twin of several statements in one read transaction, as the
    /// engine does, so that they all read one state of the database.
    private func reading(_ body: () -> Int) -> Int {
        beginStatement.run { _ in }
        defer { commitStatement.run { _ in } }
        return body()
    }

    init(raw: RawSQLite) throws {
        self.raw = raw
        pageStatement = try raw.prepare(BenchmarkSQL.page)
        phoneAndEmailStatement = try raw.prepare(BenchmarkSQL.phoneAndEmailByLastName)
        fourAttributesStatement = try raw.prepare(BenchmarkSQL.fourAttributesByFirstNameDescending)
        countStatement = try raw.prepare(BenchmarkSQL.fourAttributesCount)
        nameStatements = try [1, 2].map { try raw.prepare(BenchmarkSQL.namePrefix(keys: $0)) }
        rareNameStatements = try [1, 2].map { try raw.prepare(BenchmarkSQL.rareNamePrefix(keys: $0)) }
        holdsKeyStatement = try raw.prepare(BenchmarkSQL.holdsKey)
        phoneStatement = try raw.prepare(BenchmarkSQL.phoneDigits)
        wholePhoneStatements = try [1, 2].map { try raw.prepare(BenchmarkSQL.wholePhone(numbers: $0)) }
        sectionsStatement = try raw.prepare(BenchmarkSQL.sections)
        bookPageStatement = try raw.prepare(BenchmarkSQL.bookPage)
        childStatements = try BenchmarkSQL.children.map(raw.prepare)
        thumbnailStatement = try raw.prepare(BenchmarkSQL.thumbnails)
        commonTextStatements = try [1, 2].map { try raw.prepare(BenchmarkSQL.commonText(keys: $0)) }
        rareTextStatement = try raw.prepare(BenchmarkSQL.rareText)
        nameCountStatement = try raw.prepare(BenchmarkSQL.namePrefixCount)
        textCountStatement = try raw.prepare(BenchmarkSQL.textCount)
        contactCountStatement = try raw.prepare(BenchmarkSQL.contactCount)
        beginStatement = try raw.prepare(BenchmarkSQL.beginRead)
        commitStatement = try raw.prepare(BenchmarkSQL.commit)
        regionsStatement = try raw.prepare(BenchmarkSQL.phoneRegions)
        unifiedStatements = try [BenchmarkSQL.unifiedFourAttributesCount, BenchmarkSQL.unifiedSections].map(raw.prepare)
    }

    /// Reads a contact row's columns into Swift values, as an app would.
    func readContacts(_ statement: RawSQLite.Statement, _ values: [Any] = []) -> [Int] {
        var pks: [Int] = []
        statement.run(values) { row in
            pks.append(row.int(0))
            _ = row.decoded(from: 1)
        }
        return pks
    }

    func page() -> Int { readContacts(pageStatement).count }
    func bookPage(_ name: String) -> Int { readContacts(bookPageStatement, [name.lowercased()]).count }
    func phoneAndEmail() -> Int { readContacts(phoneAndEmailStatement).count }
    func fourAttributes() -> Int { readContacts(fourAttributesStatement).count }

    func fourAttributeCount() -> Int { countStatement.firstInt() }

    /// An app cannot know whether a prefix or a word is rare: like the
    /// engine, it counts its matches up to where reading the order and
    /// sorting the matches cost the same (√(50 × contacts × c), c = 1/16 in
    /// the default order, whose index holds the name words, 1 for a text),
    /// and reads the order when there are more.
    private func isCommon(_ statement: RawSQLite.Statement, _ keys: [Any], beyond threshold: Int) -> Bool {
        statement.firstInt(keys + [threshold + 1]) > threshold
    }

    /// The crossing, √(page × contacts × c), from the contacts there are:
    /// read each time, as another process may have added some.
    private func threshold(entryCost: Double) -> Int {
        Int((50 * Double(contactCountStatement.firstInt()) * entryCost).squareRoot())
    }

    /// `key`: the prefix as the index holds it (folded).
    func namePrefix(_ key: String) -> Int { reading { namePrefixRead(key) } }

    /// A common prefix's page, read from the order; a rare one's, sorted
    /// from its matches.
    private func namePrefixRead(_ prefix: String) -> Int {
        let words = keys(prefix), keys = words.map { Data($0.utf8) }
        let threshold = threshold(entryCost: 1.0 / 16)
        guard keys.contains(where: { isCommon(nameCountStatement, [$0, $0 + [0xFF]], beyond: threshold) }) else {
            return readContacts(rareNameStatements[keys.count - 1], keys.flatMap { [$0, $0 + [0xFF]] }).count
        }
        return readContacts(nameStatements[keys.count - 1], words.map { " " + $0 }).count
    }

    /// A folded word and, when it is of ASCII letters and digits and some
    /// Cyrillic name's Latin key begins with it, its marked form, as the
    /// engine looks for it (``SearchKeys/queryAlternatives(_:)``).
    private func keys(_ word: String) -> [String] {
        let marked = SearchKeys.queryAlternatives(word).filter { $0.hasPrefix(SearchKeys.cyrillicMark) }
        return [word] + marked.filter { key in holdsKeyStatement.firstInt([Data(key.utf8), Data(key.utf8) + [0xFF]]) == 1 }
    }

    func commonText(_ word: String) -> Int { reading { commonTextRead(keys(word)) } }

    private func commonTextRead(_ keys: [String]) -> Int {
        readContacts(commonTextStatements[keys.count - 1], keys.map { " " + $0 }).count
    }

    func rareText(_ word: String) -> Int { reading { rareTextRead(word) } }

    /// A rare word's page, sorted from its matches; a common one's read
    /// from the order.
    private func rareTextRead(_ word: String) -> Int {
        let threshold = threshold(entryCost: 1), keys = keys(word)
        if keys.contains(where: { key in
            isCommon(textCountStatement, ["\"" + key + "\""], beyond: threshold)
                || isCommon(textCountStatement, ["\"" + key + "\"*"], beyond: threshold)
        }) {
            return commonTextRead(keys)
        }
        return readContacts(rareTextStatement, [keys.map { "\"" + $0 + "\"*" }.joined(separator: " OR ")]).count
    }

    /// A piece of a number (under 10 digits, as the bench's is), read as
    /// the engine reads a phone filter (``digits(typed:)``), then found by
    /// the trigrams of its digits.
    func phone(typed: String) -> Int {
        reading { readContacts(phoneStatement, [digits(typed: typed).map { "\"" + $0 + "\"" }.joined(separator: " OR ")]).count }
    }

    /// A whole number as typed (10 digits or more, as the bench's is), read
    /// as ``digits(typed:)`` says, found by its 7-digit windows at offsets 0–3.
    func wholePhone(typed: String) -> Int { reading { wholePhone(numbers: digits(typed: typed)) } }

    /// What the engine looks for when a phone filter is typed: the digits
    /// typed, and the E.164 ones when libphonenumber reads the text as a
    /// valid number in one of the database's default regions (read each
    /// time, as they may change), unless one holds the other.
    private func digits(typed: String) -> [String] {
        var regions = "RU,KR"
        regionsStatement.run { regions = $0.text(0) ?? regions }
        var e164 = [CChar](repeating: 0, count: 64)
        // Written with "+", it counts wherever it parses; without, only
        // where it is valid.
        let found = typed.hasPrefix("+") ? cpn_e164(typed, "ZZ", 0, &e164, 64, nil) != 0
            : regions.split(separator: ",").contains { cpn_e164(typed, String($0), 1, &e164, 64, nil) == 1 }
        let digits = String(typed.unicodeScalars.filter { ("0"..."9").contains($0) })
        let international = found ? String(String(nulTerminated: e164).dropFirst()) : nil
        guard let international, !international.contains(digits) else { return [digits] }
        return digits.contains(international) ? [international] : [digits, international]
    }

    /// Numbers of 10 digits or more, by their 7-digit windows at offsets 0–3.
    private func wholePhone(numbers: [String]) -> Int {
        let values: [Any] = numbers.flatMap { digits -> [Any] in
            (0..<4).map { Int("1" + digits.dropFirst($0).prefix(7))! } + [digits]
        }
        return readContacts(wholePhoneStatements[numbers.count - 1], values).count
    }

    func sections() -> Int { readSections(sectionsStatement) }

    private func readSections(_ statement: RawSQLite.Statement) -> Int {
        var count = 0
        statement.run { row in
            _ = (row.text(0), row.int(1))
            count += 1
        }
        return count
    }

    func unifiedFourAttributeCount() -> Int { unifiedStatements[0].firstInt() }
    func unifiedSections() -> Int { readSections(unifiedStatements[1]) }

    /// The page's keys as one JSON array, for `json_each(?)`.
    private func keys(_ pks: [Int]) -> String { "[" + pks.map(String.init).joined(separator: ",") + "]" }

    func pageWithThumbnails() -> Int { reading(pageWithThumbnailsRead) }

    /// The page, then the thumbnails of those whose attributes (column 13)
    /// say they have a photo, none asked for when none has.
    private func pageWithThumbnailsRead() -> Int {
        var ids: [Int] = [], withPhotos: [Int] = []
        pageStatement.run { row in
            ids.append(row.int(0))
            if row.int(13) & Int(ContactAttributes.photo.rawValue) != 0 { withPhotos.append(row.int(0)) }
            _ = row.decoded(from: 1)
        }
        var thumbnails: [Int: (String?, Data)] = [:]
        if !withPhotos.isEmpty {
            thumbnailStatement.run([keys(withPhotos)]) { row in thumbnails[row.int(0)] = (row.text(1), row.blob(2)) }
        }
        return ids.count
    }

    func pageWithChildren() -> Int { reading(pageWithChildrenRead) }

    private func pageWithChildrenRead() -> Int {
        let ids = readContacts(pageStatement)
        let list = keys(ids)
        var children = 0
        for statement in childStatements {
            statement.run([list]) { row in
                _ = row.decoded(from: 1)
                children += 1
            }
        }
        return ids.count
    }
}
