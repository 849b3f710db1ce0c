import Foundation

/// The records of a CSV file (RFC 4180), one at a time: fields separated by
/// a comma, a semicolon or a tab (whichever the header row holds most of,
/// outside quotes), records ending in CR LF, LF or CR, a field in double
/// quotes holding separators, line breaks and doubled quotes. A byte-order
/// mark is skipped; in a file that is not valid UTF-8, each field that is
/// not is read as Windows-1252, as Outlook writes it. Blank lines hold no
/// record.
///
/// Broken syntax is refused with the line it began on: a quoted field
/// never closed, or anything but a separator or a line end after a
/// closing quote. A quote inside an unquoted field is kept as written, as
/// spreadsheets read it.
package struct CSVRecords {
    package enum TextEncoding: Sendable { case utf8, windows1252 }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let source: String
    package let separator: UInt8
    package let encoding: TextEncoding
    private var position: Int
    /// The line the next record begins on, counted from 1.
    package private(set) var line = 1
    /// Where the last record read ended: the bytes read so far.
    package var offset: Int { position }
    /// Bytes of one quoted field, its doubled quotes made single.
    private var unquoted: [UInt8] = []

    /// A record longer than this holds more than any contact: a note has
    /// at most 64 KiB, and a card's other texts a few KiB.
    package static let maximumRecordBytes = 4 << 20
    private static let tooLongReason = "the record runs past \(maximumRecordBytes >> 20) MB, more than any contact holds"

    package init(_ bytes: UnsafeBufferPointer<UInt8>, source: String) {
        self.bytes = bytes
        self.source = source
        position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        encoding = Self.isUTF8(bytes) ? .utf8 : .windows1252
        separator = Self.separator(in: UnsafeBufferPointer(rebasing: bytes[position...]))
    }

    /// Whether `bytes` begin a CSV file rather than JSON or a vCard: past
    /// a byte-order mark and white space, anything but `[`, `{` and
    /// `BEGIN:VCARD`.
    package static func isCSV(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else { return false }
        return bytes[start] != UInt8(ascii: "[") && bytes[start] != UInt8(ascii: "{")
            && !VCardReader.isVCard(UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    /// The separator the first record holds most of outside quotes; a
    /// comma when it holds none.
    static func separator(in bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var counts: [UInt8: Int] = [0x2C: 0, 0x3B: 0, 0x09: 0]
        var inQuotes = false
        for byte in bytes {
            if byte == 0x22 { inQuotes.toggle() }
            if inQuotes { continue }
            if byte == 0x0A || byte == 0x0D { break }
            counts[byte]? += 1
        }
        let comma = counts[0x2C]!, semicolon = counts[0x3B]!, tab = counts[0x09]!
        if tab > comma && tab >= semicolon { return 0x09 }
        return semicolon > comma ? 0x3B : 0x2C
    }

    /// The next record's fields, or nil at the end of the file.
    package mutating func next() throws -> [String]? {
        while position < bytes.count {
            let start = position, startLine = line
            var fields: [String] = []
            var isEnd = false
            while !isEnd {
                let field = try nextField(recordStart: start, recordLine: startLine)
                fields.append(field.text)
                isEnd = field.endsRecord
            }
            // A blank line holds no record.
            if fields.count == 1, fields[0].isEmpty { continue }
            return fields
        }
        return nil
    }

    /// Reads one field; whether the record ends after it. A record past
    /// its limit is refused before its field is kept or decoded, so that a
    /// field of hundreds of megabytes costs no memory.
    private mutating func nextField(recordStart: Int, recordLine: Int) throws -> (text: String, endsRecord: Bool) {
        let count = bytes.count
        // Bytes this field may still take before the record is too long.
        let end = min(count, recordStart + Self.maximumRecordBytes + 1)
        func tooLong() -> ContactsDBError { malformed(recordLine, Self.tooLongReason) }
        if position < count, bytes[position] == 0x22 {
            let openedOn = line
            position += 1
            unquoted.removeAll(keepingCapacity: true)
            var runStart = position
            while true {
                guard position < end else {
                    throw position < count ? tooLong() : malformed(openedOn, "a quoted field opened on this line is never closed")
                }
                let byte = bytes[position]
                if byte == 0x22 {
                    unquoted.append(contentsOf: bytes[runStart..<position])
                    if position + 1 < count, bytes[position + 1] == 0x22 {
                        unquoted.append(0x22)
                        position += 2
                        runStart = position
                        continue
                    }
                    position += 1
                    break
                }
                if byte == 0x0A || (byte == 0x0D && (position + 1 == count || bytes[position + 1] != 0x0A)) { line += 1 }
                position += 1
            }
            let text = unquoted.withUnsafeBufferPointer { decode($0) }
            guard position < count else { return (text, true) }
            switch bytes[position] {
            case separator:
                position += 1
                return (text, false)
            case 0x0A, 0x0D:
                endLine()
                return (text, true)
            default:
                throw malformed(line, "a quoted field is closed and followed by \(Self.describe(bytes[position])), "
                    + "where only a separator or a line end may follow; a quote inside a quoted field is written twice")
            }
        }
        let start = position
        while position < count {
            guard position < end else { throw tooLong() }
            let byte = bytes[position]
            if byte == separator {
                let text = decode(UnsafeBufferPointer(rebasing: bytes[start..<position]))
                position += 1
                return (text, false)
            }
            if byte == 0x0A || byte == 0x0D {
                let text = decode(UnsafeBufferPointer(rebasing: bytes[start..<position]))
                endLine()
                return (text, true)
            }
            position += 1
        }
        return (decode(UnsafeBufferPointer(rebasing: bytes[start..<position])), true)
    }

    /// Steps over CR LF, LF or CR.
    private mutating func endLine() {
        if bytes[position] == 0x0D, position + 1 < bytes.count, bytes[position + 1] == 0x0A { position += 1 }
        position += 1
        line += 1
    }

    private func decode(_ field: UnsafeBufferPointer<UInt8>) -> String {
        switch encoding {
        case .utf8: return String(decoding: field, as: UTF8.self)
        // A file that is not UTF-8 throughout may still mix in rows that
        // are (pasted in, appended by another program): each field is
        // read as UTF-8 where it is valid, else as Windows-1252.
        case .windows1252:
            return Self.isUTF8(field) ? String(decoding: field, as: UTF8.self)
                : String(String.UnicodeScalarView(field.map(Self.windows1252)))
        }
    }

    private func malformed(_ line: Int, _ reason: String) -> ContactsDBError {
        .invalidContact(field: "\(source) line \(line)", reason: "not valid CSV: \(reason); fix the file and try again.")
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "the byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    // MARK: - Encodings

    /// Whether `bytes` are well-formed UTF-8 (no overlong forms, no
    /// surrogates, nothing past U+10FFFF).
    static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            let length: Int, low: UInt8, high: UInt8
            switch byte {
            case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
            case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
            case 0xED: (length, low, high) = (3, 0x80, 0x9F)
            case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
            case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
            default: return false
            }
            guard index + length <= count, (low...high).contains(bytes[index + 1]) else { return false }
            for next in bytes[(index + 2)..<(index + length)] where next & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// Windows-1252's characters for 0x80…0x9F; the rest are Latin-1's. The
    /// five bytes it leaves undefined are read as the C1 controls of their
    /// value, as Windows itself maps them.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    private static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
        (0x80...0x9F).contains(byte) ? Unicode.Scalar(windows1252High[Int(byte) - 0x80])! : Unicode.Scalar(byte)
    }
}
