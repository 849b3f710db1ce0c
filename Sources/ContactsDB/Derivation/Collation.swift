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
        // "fold" marks keys and folded words computed by the ICU-derived fold.
        return "icu " + String(nulTerminated: buffer) + " primary fold"
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

    /// `text` with each character replaced by the one that stands for all
    /// the characters ICU's root collator holds equal to it at primary
    /// strength (lower case, unaccented): `Ё` → `е`, `É` → `e`, `Ł` → `l`,
    /// `Ø` → `o`, `Æ` → `ae`, `ß` → `ss`, but `Й` stays `й`. Two texts fold
    /// alike when ICU finds them equal, letter for letter, so that a name
    /// filter on folded words finds what the collator would.
    static func fold(_ text: String) -> String {
        // ASCII, the most of what is folded, only lowers its capitals.
        if let folded = text.utf8.withContiguousStorageIfAvailable(asciiFolded) ?? nil { return folded }
        // Composed first where it matters: й written as и + breve is a letter
        // of its own, and conjoining jamo spell a syllable. Most text holds
        // no combining scalar and skips the normalization.
        let composed = text.unicodeScalars.contains(where: Self.mayCompose) ? text.precomposedStringWithCanonicalMapping : text
        // Made as bytes and then a string once: appending to a string
        // scalar by scalar cost twice as much.
        var folded: [UInt8] = []
        folded.reserveCapacity(composed.utf8.count)
        for scalar in composed.unicodeScalars {
            switch scalar.value {
            case 0..<0x80:
                let byte = UInt8(scalar.value)
                folded.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
            case 0xAC00...0xD7A3:
                folded.append(contentsOf: scalar.utf8)  // each syllable is a class of its own
            default:
                folded.append(contentsOf: FoldTable.shared.fold(scalar).utf8)
            }
        }
        return String(decoding: folded, as: UTF8.self)
    }

    /// ``fold(_:)`` of ASCII bytes, which only lowers the capitals; nil
    /// when a byte is not ASCII.
    private static func asciiFolded(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (offset, byte) in bytes.enumerated() { buffer[offset] = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
            return bytes.count
        }
    }

    /// Combining marks and conjoining jamo: the scalars canonical
    /// composition may merge into the scalar before them.
    private static func mayCompose(_ scalar: UnicodeScalar) -> Bool {
        switch scalar.value {
        case 0x300...0x36F, 0x483...0x489, 0x591...0x5C7, 0x610...0x61A, 0x64B...0x65F, 0x900...0xDFF,
             0x1100...0x11FF, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0x3099...0x309A, 0xFE20...0xFE2F:
            return true
        default:
            return false
        }
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
            cicu_bucket_label(bucket, &buffer, Int32(buffer.count)) != 0 ? String(nulTerminated: buffer) : nil
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

/// The fold of ``Collation/fold(_:)``, derived from ICU's root collator:
/// the scalars of the alphabets a contacts list shows (Latin, Greek,
/// Cyrillic and their extensions, Hangul jamo) grouped by their primary
/// sort keys, each group standing for itself by its lower-case member; a letter ICU expands
/// into two (`æ`, `ß`) stands for the pair it equals. Other scalars are
/// looked up by their key when first seen, and stand for themselves when
/// no class of the table has it: the classes never depend on the order in
/// which a process meets scalars, so every process folds alike.
final class FoldTable: @unchecked Sendable {
    static let shared = FoldTable()

    /// The scalars folded when the table is built.
    static let ranges: [ClosedRange<UInt32>] = [0x80...0x52F, 0x1100...0x11FF, 0x1E00...0x1FFF, 0x3130...0x318F]

    /// The folds of the scalars below ``fixedCount``, read without a lock.
    private var fixed: [String] = []
    private static let fixedCount = 0x530
    private let lock = NSLock()
    private var byScalar: [UInt32: String] = [:]
    /// Each primary key to the text that stands for its class.
    private var byKey: [Data: String] = [:]

    private init() {
        // Pairs of Latin letters first: a letter ICU expands into two
        // (`æ` = `ae`, `ß` = `ss`) then stands for the pair.
        let letters = (0x61...0x7A).compactMap(UnicodeScalar.init).map(String.init)
        for first in letters {
            for second in letters { byKey[Collation.key(first + second)] = first + second }
        }
        var scalars = (0..<0x80).compactMap(UnicodeScalar.init)
        scalars += Self.ranges.flatMap { $0.compactMap(UnicodeScalar.init) }
        let keys = scalars.map { Collation.key(String($0)) }
        // Lower-case and caseless members next, so that each class is
        // named by its lower-case letter.
        for (scalar, key) in zip(scalars, keys) where !key.isEmpty && !scalar.properties.changesWhenLowercased {
            if byKey[key] == nil { byKey[key] = String(scalar) }
        }
        for (scalar, key) in zip(scalars, keys) where scalar.value >= 0x80 {
            byScalar[scalar.value] = folded(scalar, key)
        }
        fixed = (0..<UInt32(Self.fixedCount)).map { byScalar[$0] ?? UnicodeScalar($0).map { String($0).lowercased() } ?? "" }
    }

    /// The scalar's fold: from the table, else by its key.
    func fold(_ scalar: UnicodeScalar) -> String {
        if scalar.value < Self.fixedCount { return fixed[Int(scalar.value)] }
        lock.lock()
        defer { lock.unlock() }
        if let folded = byScalar[scalar.value] { return folded }
        let key = Collation.key(String(scalar))
        let folded = key.isEmpty ? "" : byKey[key] ?? String(scalar).lowercased()
        byScalar[scalar.value] = folded
        return folded
    }

    /// What stands for the scalar's class: nothing for a scalar ICU
    /// ignores (a combining mark), else the class's name, or the scalar's
    /// own lower case, which then names its class.
    private func folded(_ scalar: UnicodeScalar, _ key: Data) -> String {
        guard !key.isEmpty else { return "" }
        if let name = byKey[key] { return name }
        let own = String(scalar).lowercased()
        byKey[key] = own
        return own
    }
}
