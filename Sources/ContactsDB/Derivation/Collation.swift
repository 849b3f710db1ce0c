import CICU
import Foundation

/// How names compare and file into sections.
///
/// This is the engine's one place for ordering: the stored sort keys, the
/// folded search text and the section index all come from here, and its
/// ``version`` is recorded in the database so that keys computed by another
/// version are recomputed on open.
///
/// Order follows ICU's root collation at primary strength (case and accents
/// ignored, each alphabet in its own order, Ё beside Е), through ICU sort
/// keys that SQLite compares bytewise, so every sort runs from an index.
/// Sections follow ICU's AlphabeticIndex.
enum Collation {
    /// ICU's version and its root collator's, e.g. `icu 72.1/153.112`.
    static let version: String = {
        var buffer = [CChar](repeating: 0, count: 64)
        cicu_collation_version(&buffer, Int32(buffer.count))
        return "icu " + String(cString: buffer) + " primary"
    }()

    /// The bytewise-comparable ICU sort key of `text`.
    static func key(_ text: String) -> Data {
        withUTF16(text) { utf16, length in
            var capacity = 4 * Int(length) + 16
            while true {
                let key = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> Data? in
                    let size = Int(cicu_sort_key(utf16, length, buffer.baseAddress, Int32(capacity)))
                    precondition(size >= 0, "ICU's collator is unavailable")
                    return size < capacity ? Data(buffer[..<size]) : nil
                }
                if let key { return key }
                capacity *= 2
            }
        }
    }

    /// <0, 0 or >0 as ICU's collator orders `a` and `b`.
    static func compare(_ a: String, _ b: String) -> Int {
        withUTF16(a) { a, aLength in withUTF16(b) { b, bLength in Int(cicu_compare(a, aLength, b, bLength)) } }
    }

    /// True when `a` sorts before `b`, for `sorted(by:)`.
    static func precedes(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

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

    /// The section a sort name files under: the label ICU's AlphabeticIndex
    /// gives it (A–Z, Α–Ω, А–Я, ㄱ–ㅎ), or "#", and that section's position.
    static func section(of sortName: String) -> (key: String, index: Int) {
        let bucket = withUTF16(sortName) { text, length in Int(cicu_bucket_of(text, length)) }
        return SectionIndex.buckets.indices.contains(bucket) ? SectionIndex.buckets[bucket] : SectionIndex.otherSection
    }

    private static func withUTF16<T>(_ text: String, _ body: (UnsafePointer<UInt16>, Int32) -> T) -> T {
        let count = text.utf16.count
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: max(count, 1)) { buffer in
            _ = buffer.initialize(from: text.utf16)
            return body(buffer.baseAddress!, Int32(count))
        }
    }
}

/// The section index: ICU's AlphabeticIndex for English with the Greek,
/// Russian and Korean labels added, its letter buckets in its order, and
/// every other bucket (digits, symbols, other scripts) as "#", last.
enum SectionIndex {
    static let other = "#"

    /// The letter labels in reading order, then "#".
    static let labels: [String] = buckets.filter { $0.key != other }.map(\.key) + [other]
    static let position = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })
    static var otherSection: (key: String, index: Int) { (other, labels.count - 1) }

    /// Each ICU bucket as its label and position in `labels`.
    static let buckets: [(key: String, index: Int)] = {
        var buffer = [CChar](repeating: 0, count: 64)
        let letterLabels: [String?] = (0..<cicu_bucket_count()).map { bucket in
            cicu_bucket_label(bucket, &buffer, Int32(buffer.count)) != 0 ? String(cString: buffer) : nil
        }
        let letterCount = letterLabels.compactMap { $0 }.count
        var position = 0
        return letterLabels.map { label in
            guard let label else { return (other, letterCount) }
            defer { position += 1 }
            return (label, position)
        }
    }()
}
