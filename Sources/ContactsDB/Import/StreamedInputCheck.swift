import Foundation

/// Checks an import's input as it streams in (`import -`), so that input
/// that can be no format is refused at its first byte that cannot be
/// one, instead of being copied for ever: its format is told from its
/// first bytes as the import tells it (JSON from `[` or `{`, vCard from
/// `BEGIN:VCARD`, CSV from anything else), then JSON is checked for what
/// its reader refuses on the way (a byte no JSON text holds, nesting
/// deeper than it reads, anything after the value), vCard for a NUL byte
/// (which no text holds) and for cards opened inside one another past any
/// real nesting, and CSV for a NUL byte, a header row longer than any
/// layout's and a record longer than any contact's (an unclosed quote).
/// UTF-16 and UTF-32 input is left to the import's own reading.
package struct StreamedInputCheck {
    private enum Format { case undecided, json, vCard, csv, wide }

    private let source: String
    private var format = Format.undecided
    /// The first bytes, kept until the format is told.
    private var head: [UInt8] = []
    private var offset = 0
    private var line = 1
    private var hasByteOrderMark = false

    // JSON: where the reader is.
    private var depth = 0, inString = false, isEscaped = false, isDone = false
    /// UTF-8 continuation bytes still due in a string.
    private var continuations = 0

    // vCard: the cards open, and the current line's first bytes.
    private var openCards = 0
    private var lineHead: [UInt8] = []
    private var isFolded = false

    // CSV: inside quotes, the current record's bytes, whether it is the header.
    private var inQuotes = false, recordBytes = 0, isHeader = true

    /// A header row longer than this is no contacts layout's: Outlook's
    /// names 92 columns in about 1.5 KB, Google's a few times that.
    static let maximumHeaderBytes = 64 << 10

    /// Cards opened inside one another (vCard 2.1's AGENT nests one or two).
    static let maximumCardNesting = 32

    package init(source: String) {
        self.source = source
    }

    /// Checks the next bytes; throws ``ContactsDBError/invalidContact(field:reason:)``
    /// naming the first byte that cannot belong to an input either
    /// reader takes.
    package mutating func check(_ bytes: UnsafeRawBufferPointer) throws {
        for byte in bytes {
            offset += 1
            switch format {
            case .undecided:
                // Held back, then checked (and its lines counted) once told.
                try decide(byte, isEnd: false)
                continue
            case .json: try checkJSON(byte)
            case .vCard: try checkVCard(byte)
            case .csv: try checkCSV(byte)
            case .wide: return
            }
            if byte == 0x0A { line += 1 }
        }
    }

    /// Checks that the input, ended, was told to be one of the formats.
    package mutating func finish() throws {
        if format == .undecided, !head.isEmpty { try decide(nil, isEnd: true) }
    }

    private mutating func decide(_ byte: UInt8?, isEnd: Bool) throws {
        if let byte { head.append(byte) }
        guard head.count >= 8 || isEnd else { return }
        if head.withUnsafeBufferPointer({ UnicodeTranscoding.isWide($0) }) {
            format = .wide
            return
        }
        // Told as the import tells it: past a byte-order mark and white
        // space, `[` or `{` is JSON, `BEGIN:VCARD` in any case vCard,
        // anything else CSV.
        hasByteOrderMark = head.starts(with: [0xEF, 0xBB, 0xBF])
        var start = hasByteOrderMark ? 3 : 0
        while start < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[start]) { start += 1 }
        let rest = Array(head[start...])
        guard !rest.isEmpty else {
            if isEnd { format = .json }
            return
        }
        let begin = Array("BEGIN:VCARD".utf8)
        let upper = rest.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }
        let seen = head
        if rest[0] == UInt8(ascii: "[") || rest[0] == UInt8(ascii: "{") {
            format = .json
        } else if begin.starts(with: upper.prefix(begin.count)) {
            guard upper.count >= begin.count || isEnd else { return }
            format = upper.starts(with: begin) ? .vCard : .csv
        } else {
            format = .csv
        }
        // Check what was held back as any later byte is checked.
        (head, offset, line) = ([], offset - seen.count, 1)
        for byte in seen {
            offset += 1
            switch format {
            case .json: try checkJSON(byte)
            case .vCard: try checkVCard(byte)
            default: try checkCSV(byte)
            }
            if byte == 0x0A { line += 1 }
        }
    }

    private func refuse(_ byte: UInt8, _ why: String) -> ContactsDBError {
        let hex = String(byte, radix: 16, uppercase: true)
        return refuse("0x\(hex.count == 1 ? "0" + hex : hex) \(why)")
    }

    private func refuse(_ why: String) -> ContactsDBError {
        .invalidContact(field: "\(source) line \(line), byte \(offset)", reason: "\(why); nothing was imported.")
    }

    private mutating func checkJSON(_ byte: UInt8) throws {
        if hasByteOrderMark, offset <= 3 { return }
        if inString {
            if continuations > 0 {
                guard byte & 0xC0 == 0x80 else { throw refuse(byte, "breaks a UTF-8 character, which JSON text cannot") }
                continuations -= 1
            } else if isEscaped {
                isEscaped = false
            } else if byte == UInt8(ascii: "\\") {
                isEscaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            } else if byte < 0x20 {
                throw refuse(byte, "is a control character inside a string, which JSON text cannot hold")
            } else if byte >= 0x80 {
                switch byte {
                case 0xC2...0xDF: continuations = 1
                case 0xE0...0xEF: continuations = 2
                case 0xF0...0xF4: continuations = 3
                default: throw refuse(byte, "is no UTF-8, which JSON text must be")
                }
            }
            return
        }
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D:
            return
        case _ where isDone:
            throw refuse(byte, "follows the end of the JSON value")
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            depth += 1
            guard depth <= JSONReader.maxDepth else {
                throw refuse(byte, "nests deeper than the \(JSONReader.maxDepth) levels JSON is read to")
            }
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            guard depth > 0 else { throw refuse(byte, "closes what was never opened") }
            depth -= 1
            isDone = depth == 0
        case UInt8(ascii: "\""):
            guard depth > 0 else { throw refuse(byte, "cannot begin the JSON format, an array or an object") }
            inString = true
        case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            guard depth > 0 else { throw refuse(byte, "cannot begin JSON (an array or an object) or a vCard (BEGIN:VCARD)") }
        default:
            throw refuse(byte, depth > 0 ? "cannot stand outside a string in JSON"
                                         : "cannot begin JSON (an array or an object) or a vCard (BEGIN:VCARD)")
        }
    }

    private mutating func checkCSV(_ byte: UInt8) throws {
        guard byte != 0 else { throw refuse(byte, "is a NUL byte, which no CSV text holds") }
        recordBytes += 1
        if byte == UInt8(ascii: "\"") {
            inQuotes.toggle()
        } else if !inQuotes, byte == 0x0A || byte == 0x0D {
            // A record ends; a blank line before the header is none.
            if recordBytes > 1 { isHeader = false }
            recordBytes = 0
            return
        }
        if isHeader, recordBytes > Self.maximumHeaderBytes {
            throw refuse("the CSV header row runs past \(Self.maximumHeaderBytes >> 10) KB, longer than any contacts layout's")
        }
        if recordBytes > CSVRecords.maximumRecordBytes {
            throw refuse("a CSV record runs past \(CSVRecords.maximumRecordBytes >> 20) MB, more than any contact holds"
                + (inQuotes ? " (a quoted field is never closed)" : ""))
        }
    }

    private mutating func checkVCard(_ byte: UInt8) throws {
        guard byte != 0 else { throw refuse(byte, "is a NUL byte, which no vCard text holds") }
        if byte == 0x0A || byte == 0x0D {
            try endVCardLine()
        } else if lineHead.isEmpty, !isFolded, byte == 0x20 || byte == 0x09, openCards > 0 {
            // A folded line goes on the one before, whatever it says.
            isFolded = true
        } else if !isFolded, lineHead.count < 16 {
            lineHead.append(byte)
        }
    }

    /// Counts the cards a line opens or closes.
    private mutating func endVCardLine() throws {
        defer { (lineHead, isFolded) = ([], false) }
        let text = String(decoding: lineHead, as: UTF8.self).trimmingCharacters(in: .whitespaces).uppercased()
        if text == "BEGIN:VCARD" {
            openCards += 1
            guard openCards <= Self.maximumCardNesting else {
                throw refuse("BEGIN:VCARD opens a card \(openCards) deep inside others, deeper than the \(Self.maximumCardNesting) any vCard nests")
            }
        } else if text == "END:VCARD" {
            openCards = max(0, openCards - 1)
        }
    }
}
