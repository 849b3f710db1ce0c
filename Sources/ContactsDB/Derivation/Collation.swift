import Foundation

/// How names compare and file into sections.
///
/// This is the engine's one place for ordering: the stored sort keys, the
/// folded search text and the section index all come from here, and its
/// ``version`` is recorded in the database so that keys computed by another
/// version are recomputed on open.
///
/// This version folds case and accents (keeping letters that are letters of
/// their own, such as Й) and compares the folded text by code point, which
/// puts Latin, Greek, Cyrillic and Hangul in the order of ICU's root
/// collation and each alphabet in its own order.
enum Collation {
    static let version = "fold-1"

    /// A bytewise-comparable key: the folded text's UTF-8 bytes.
    static func key(_ text: String) -> Data {
        Data(fold(text).utf8)
    }

    /// Case- and accent-insensitive form of `text`, as ICU's primary
    /// strength reads it: `Ё` → `е`, `É` → `e`, `ß` → `ss`, `ς` → `σ`, but
    /// `Й` stays `й`.
    static func fold(_ text: String) -> String {
        // Scalar by scalar through a table for the alphabets below U+0500 and
        // Hangul syllables (which fold to themselves); the full Unicode path
        // only for combining marks and other scripts.
        var folded = ""
        folded.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0..<0x80:
                let byte = UInt8(scalar.value)
                folded.unicodeScalars.append(UnicodeScalar((0x41...0x5A).contains(byte) ? byte | 0x20 : byte))
            case 0x80..<0x300, 0x370..<0x500:
                folded += foldedScalars[Int(scalar.value)]
            case 0xAC00...0xD7A3:
                folded.unicodeScalars.append(scalar)
            default:
                return foldSlowly(text)
            }
        }
        return folded
    }

    private static let foldedScalars: [String] = (0..<0x500).map { value in
        UnicodeScalar(value).map { foldSlowly(String($0)) } ?? ""
    }

    private static func foldSlowly(_ text: String) -> String {
        var folded = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark {
                if scalar == "\u{306}", let base = folded.last, base == "и" || base == "у" {
                    folded.append(scalar)  // й and ў are letters of their own
                }
                continue
            }
            switch scalar {
            case "ß": folded.append(contentsOf: "ss".unicodeScalars)
            case "ς": folded.append("σ")
            default: folded.append(scalar)
            }
        }
        return String(folded).precomposedStringWithCanonicalMapping
    }

    /// The section a sort name files under: its first letter's label in the
    /// index (A–Z, Α–Ω, А–Я, ㄱ–ㅎ), or "#".
    static func section(of sortName: String) -> (key: String, index: Int) {
        section(ofFolded: fold(sortName))
    }

    static func section(ofFolded foldedSortName: String) -> (key: String, index: Int) {
        guard let first = foldedSortName.unicodeScalars.first,
              let label = SectionIndex.label(for: first)
        else { return (SectionIndex.other, SectionIndex.labels.count - 1) }
        return (label, SectionIndex.position[label]!)
    }
}

/// The section index labels in reading order, "#" last.
enum SectionIndex {
    static let other = "#"

    private static let latin = (UInt32(0x41)...0x5A).map { String(UnicodeScalar($0)!) }
    private static let greek = Array("ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ").map(String.init)
    private static let cyrillic = Array("АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЫЭЮЯ").map(String.init)
    private static let hangul = Array("ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ").map(String.init)

    static let labels = latin + greek + cyrillic + hangul + [other]
    static let position = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })

    /// Hangul choseong (in syllable order) → the index label it files under;
    /// the doubled consonants file under their single one.
    private static let choseongLabels = Array("ㄱㄱㄴㄷㄷㄹㅁㅂㅂㅅㅅㅇㅈㅈㅊㅋㅌㅍㅎ").map(String.init)

    /// The label of a folded first letter, or nil for "#".
    static func label(for scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x61...0x7A:
            return String(scalar).uppercased()
        case 0x3B1...0x3C9:
            return labelAtOrBefore(String(scalar).uppercased(), in: greek)
        case 0x430...0x44F:
            return labelAtOrBefore(String(scalar).uppercased(), in: cyrillic)
        case 0xAC00...0xD7A3:
            return choseongLabels[Int(scalar.value - 0xAC00) / 588]
        case 0x3131...0x314E:
            return labelAtOrBefore(String(scalar), in: hangul)
        default:
            return nil
        }
    }

    /// The last label not after `letter`, as an index files letters that
    /// have no label of their own (ς under Σ, Ъ under Щ).
    private static func labelAtOrBefore(_ letter: String, in alphabet: [String]) -> String? {
        alphabet.last { $0.unicodeScalars.first!.value <= letter.unicodeScalars.first!.value }
    }
}
