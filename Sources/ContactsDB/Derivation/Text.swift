import Foundation

/// Text rules shared by validation and derivation.
enum Text {
    /// Trims the ends and collapses inner runs of white space to one space.
    static func tidy(_ text: String) -> String {
        isTidy(text) ? text : text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// True when `tidy` would return the text unchanged, judged from its
    /// UTF-8 bytes: no white space at the ends, no run of it, nothing but
    /// single ASCII spaces, and no lead byte of a non-ASCII space.
    private static func isTidy(_ text: String) -> Bool {
        var previous: UInt8 = 0x20  // a leading space is untidy
        for byte in text.utf8 {
            switch byte {
            case 0x09...0x0D, 0xC2, 0xE1, 0xE2, 0xE3:
                return false
            case 0x20 where previous == 0x20:
                return false
            default:
                previous = byte
            }
        }
        return previous != 0x20 || text.isEmpty
    }

    /// Trims the ends as `trimmingCharacters(in:)` does, without its cost
    /// for a text whose ends are not white space (`set` is white space).
    static func trimmed(_ text: String, in set: CharacterSet = .whitespacesAndNewlines) -> String {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
              first.properties.isWhitespace || last.properties.isWhitespace else { return text }
        return text.trimmingCharacters(in: set)
    }

    /// What makes a group's name its own, whatever its case: names are
    /// unique by this key.
    static func groupKey(_ name: String) -> String { tidy(name).lowercased() }

    /// The tidied name in full case folding, where one letter may fold to
    /// two (`ß` and `SS` to `ss`, `ﬁ` to `fi`) and a final sigma is a
    /// sigma: upper-casing first takes every such letter to its capitals.
    static func caseFolded(_ name: String) -> String { tidy(name).uppercased().lowercased() }

    /// `tidy`, with an empty result read as absent.
    static func tidyOrNil(_ text: String?) -> String? {
        guard let text else { return nil }
        let tidied = tidy(text)
        return tidied.isEmpty ? nil : tidied
    }

    /// The words of a name: split at white space and hyphens.
    static func words(_ text: String) -> [Substring] {
        // ASCII, where each character is a byte (or CR LF, white space
        // either way), is cut byte by byte, without grapheme breaking.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.split { $0 == 0x20 || (0x09...0x0D).contains($0) || $0 == UInt8(ascii: "-") }.map(Substring.init)
        }
        return text.split(whereSeparator: { $0.isWhitespace || $0 == "-" || $0 == "‐" })
    }

    /// The folded words of any text, cut as SQLite's FTS5 `unicode61`
    /// tokenizer cuts them: runs of letters, digits and private-use
    /// characters; every other character (space, punctuation, symbol, mark)
    /// separates. `Anna@posteo.de` holds `anna`, `posteo` and `de`. Both a
    /// contact's stored words and a `--text` filter's come from here.
    static func searchWords(_ text: String) -> [String] {
        var folded = Collation.fold(text)
        if let words = folded.withUTF8(asciiSearchWords) { return words }
        let scalars = folded.unicodeScalars
        var words: [String] = [], start: String.Index?
        for index in scalars.indices {
            if isWordScalar(scalars[index]) {
                if start == nil { start = index }
            } else if let first = start {
                words.append(String(scalars[first..<index]))
                start = nil
            }
        }
        if let first = start { words.append(String(scalars[first...])) }
        return words
    }

    /// ``searchWords(_:)`` of a folded text that is ASCII, most of what is
    /// searched (emails, URLs, Latin names and addresses), cut byte by byte;
    /// nil for any other text.
    private static func asciiSearchWords(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        var words: [String] = [], start = -1
        for (offset, byte) in bytes.enumerated() {
            guard byte < 0x80 else { return nil }
            if isWordScalar(Unicode.Scalar(byte)) {
                if start < 0 { start = offset }
            } else if start >= 0 {
                words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self))
                start = -1
            }
        }
        if start >= 0 { words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self)) }
        return words
    }

    /// Whether unicode61 keeps `scalar` in a word: letters, digits and
    /// private-use characters. ASCII, most of any text, is judged without
    /// looking its category up.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0..<0x80: return false
        default:
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber, .privateUse:
                return true
            default:
                return false
            }
        }
    }
}

extension String {
    /// The text a C function wrote into `buffer`, up to its first NUL (all
    /// of it when there is none); bytes that are not UTF-8 become U+FFFD.
    package init(nulTerminated buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
