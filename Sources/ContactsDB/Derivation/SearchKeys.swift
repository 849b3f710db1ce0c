import CICU
import Foundation

/// The keys that let a name be found as people type it in another script
/// (docs/cli.md, "Querying"): the Hangul initial consonants of a name, the
/// Latin transliteration of its words, and the Latin spellings Korean
/// family names are written in. They are derived when a contact is written
/// and stored among its name words and search words, so that `--name` and
/// `--text` find them through the indexes those already have; they never
/// reach a sort key, a section or an export.
package enum SearchKeys {
    /// The ICU transform of a name word into Latin: every script by
    /// `Any-Latin`, then plain ASCII.
    static let transform = "Any-Latin; Latin-ASCII"
    /// The same for a word with Han in it, read first by its readings as
    /// names (`单` as the family name Shan). Asked for only then: ICU takes
    /// some 150 ms of processor time to build it, against 20 ms for the
    /// other, which builds each script's part when first met.
    static let hanTransform = "Han-Latin/Names; Any-Latin; Latin-ASCII"

    /// The keys of a draft, folded as name words are, each once, in the
    /// order: initial consonants, then Latin words, then family-name
    /// spellings.
    static func keys(_ draft: ContactDraft) -> [String] {
        var keys: [String] = []
        func addFolded(_ key: String) {
            if !key.isEmpty, !keys.contains(key) { keys.append(key) }
        }
        func add(_ key: String) { addFolded(Collation.fold(key)) }
        let given = [draft.firstName, draft.middleName].compactMap { $0 }.joined()
        let phoneticGiven = [draft.phoneticFirstName, draft.phoneticMiddleName].compactMap { $0 }.joined()
        for name in [(draft.lastName ?? "") + given, given,
                     (draft.phoneticLastName ?? "") + phoneticGiven, phoneticGiven, draft.nickname ?? ""] {
            if let initials = initialConsonants(name) { add(initials) }
        }
        let texts = [draft.firstName, draft.middleName, draft.lastName, draft.company, draft.nickname,
                     draft.phoneticFirstName, draft.phoneticMiddleName, draft.phoneticLastName]
        for text in texts.compactMap({ $0 }) {
            // A word of ASCII letters and digits is its own key, a name word already.
            for word in Text.words(text) where !word.utf8.allSatisfy(isASCIILetterOrDigit) {
                let mark = isCyrillic(word) ? cyrillicMark : ""
                latinWords(String(word)).forEach { addFolded(mark + $0) }
            }
        }
        for family in [draft.lastName, draft.phoneticLastName].compactMap({ $0 }) {
            KoreanFamilyNames.spellings[family]?.forEach(add)
        }
        return keys
    }

    /// Put before the Latin keys of a Cyrillic word (`Анна` gives
    /// `\u{E000}anna`), which a Latin word is looked for by with the mark
    /// before it, and a Cyrillic word's own Latin form without it: so `ann`
    /// finds Анна, and `ян` (`an`) finds Ivan's Latin spellings and other
    /// scripts' names but not Анна, whose own script it can search itself.
    /// A private-use character: FTS5's tokenizer keeps it inside the word,
    /// and it can begin no word of a name a person types.
    package static let cyrillicMark = "\u{E000}"

    /// Whether a word has a letter of the Cyrillic script (and its
    /// supplement), whose words get Latin forms both ways.
    static func isCyrillic(_ word: some StringProtocol) -> Bool {
        word.unicodeScalars.contains { (0x400...0x52F).contains($0.value) }
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    // MARK: - Initial consonants

    /// The initial consonants (초성) of the Hangul syllables `name` begins
    /// with, its white space left out, as compatibility jamo (`홍길동` →
    /// `ㅎㄱㄷ`); nil when it does not begin with a syllable.
    static func initialConsonants(_ name: String) -> String? {
        var initials = String.UnicodeScalarView()
        for scalar in name.unicodeScalars where !scalar.properties.isWhitespace {
            guard (0xAC00...0xD7A3).contains(scalar.value) else { break }
            // Unicode's syllable arithmetic: 21 vowels × 28 finals per initial.
            initials.append(initialJamo[Int(scalar.value - 0xAC00) / (21 * 28)])
        }
        return initials.isEmpty ? nil : String(initials)
    }

    /// The 19 initial consonants in Unicode's order (that of U+1100…U+1112),
    /// as the compatibility jamo a keyboard types: ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ
    /// ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ.
    static let initialJamo: [UnicodeScalar] = [
        0x3131, 0x3132, 0x3134, 0x3137, 0x3138, 0x3139, 0x3141, 0x3142, 0x3143, 0x3145,
        0x3146, 0x3147, 0x3148, 0x3149, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E,
    ].compactMap(UnicodeScalar.init)

    // MARK: - Transliteration

    /// The words of `text`'s Latin transliteration, folded as name words
    /// are: cut at white space and hyphens (ICU joins Hangul syllables with
    /// one, Han ones with a space), each keeping only its letters and
    /// digits, so that the soft sign's apostrophe (`Ольга` → `Ol'ga`) does
    /// not cut a name in two.
    static func latinWords(_ text: String) -> [String] {
        // ASCII is its own transliteration: no need to ask ICU.
        text.utf8.allSatisfy { $0 < 0x80 } ? words(ofLatin: text) : LatinCache.shared.latinWords(text)
    }

    private static func words(ofLatin latin: String) -> [String] {
        Text.words(latin).compactMap { word in
            let kept = String(String.UnicodeScalarView(word.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }))
            return kept.isEmpty ? nil : Collation.fold(kept)
        }
    }

    /// The forms a folded query word is looked for by besides itself: for
    /// a word with a Cyrillic letter, its transliteration (`иван` → `ivan`),
    /// which finds Latin names and the keys of other scripts; for a word of
    /// ASCII letters and digits, itself marked (``cyrillicMark``), which
    /// finds Cyrillic names; none for any other.
    package static func queryAlternatives(_ word: String) -> [String] {
        if word.utf8.allSatisfy(isASCIILetterOrDigit) { return word.isEmpty ? [] : [cyrillicMark + word] }
        guard isCyrillic(word) else { return [] }
        let latin = latinWords(word).joined()
        return latin.isEmpty || latin == word ? [] : [latin]
    }

    /// ICU transliterates a few thousand words a second, and names repeat:
    /// each word's Latin words are kept once made, for every thread.
    final class LatinCache: @unchecked Sendable {
        static let shared = LatinCache()
        private let lock = NSLock()
        private var byText: [String: [String]] = [:]
        /// Beyond this many words the cache starts afresh, to stay small.
        private static let capacity = 50_000

        func latinWords(_ text: String) -> [String] {
            lock.lock()
            let cached = byText[text]
            lock.unlock()
            if let cached { return cached }
            let hasHan = text.unicodeScalars.contains { $0.properties.isIdeographic }
            let made = SearchKeys.words(ofLatin: Self.transliterate(text, transform: hasHan ? SearchKeys.hanTransform : SearchKeys.transform))
            lock.lock()
            if byText.count >= Self.capacity { byText.removeAll(keepingCapacity: true) }
            byText[text] = made
            lock.unlock()
            return made
        }

        static func transliterate(_ text: String, transform: String) -> String {
            let utf16 = Array(text.utf16)
            var capacity = 4 * utf16.count + 16
            while true {
                var result = [UInt16](repeating: 0, count: capacity)
                let size = Int(cicu_transliterate(transform, utf16, Int32(utf16.count), &result, Int32(capacity)))
                precondition(size >= 0, "ICU has no transform \(transform)")
                if size <= capacity { return String(decoding: result[..<size], as: UTF16.self) }
                capacity = size
            }
        }
    }
}

/// The Latin spellings the most common Korean family names are written in
/// besides the transliteration ICU gives (`gim`, `i`, `bag`), so that `kim`
/// finds 김 and `lee` finds 이.
///
/// Written here from published facts: which names are the most common
/// (Statistics Korea's 2015 Population and Housing Census: 김, 이, 박, 최,
/// 정 and so on), and per name its Revised Romanization (2000), its
/// McCune–Reischauer form without the breve and apostrophe (Pak, Choe,
/// Yi) and the spellings its bearers commonly use in passports (Kim, Lee,
/// Park, Choi), as the English Wikipedia's "List of Korean surnames"
/// tabulates them.
enum KoreanFamilyNames {
    static let spellings: [String: [String]] = [
        "김": ["kim", "gim"],
        "이": ["lee", "yi", "rhee", "i"],
        "박": ["park", "pak", "bak"],
        "최": ["choi", "choe"],
        "정": ["jung", "jeong", "chung"],
        "강": ["kang", "gang"],
        "조": ["cho", "jo"],
        "윤": ["yoon", "yun"],
        "장": ["jang", "chang"],
        "임": ["lim", "im"],
        "한": ["han"],
        "오": ["oh", "o"],
        "서": ["seo", "suh"],
        "신": ["shin", "sin"],
        "권": ["kwon", "gwon"],
        "황": ["hwang"],
        "안": ["ahn", "an"],
        "송": ["song"],
        "류": ["ryu", "yoo", "yu"],
        "유": ["yoo", "yu"],
        "전": ["jeon", "jun", "chun"],
        "홍": ["hong"],
    ]
}
