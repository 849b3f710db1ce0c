import Foundation

/// One unfolded vCard content line, `group.NAME;PARAM=a,b:value`, with its
/// value decoded to text: quoted-printable undone and the bytes read in
/// their CHARSET (or, without one, as UTF-8 when they are valid UTF-8 and
/// else in the file's evident legacy charset). Decoding comes before
/// unescaping, so a Shift_JIS trail byte 0x5C is never read as a backslash.
struct VCardContentLine {
    /// The group as written (`item1`), or nil.
    var group: String?
    /// The name, upper-cased.
    var name: String
    /// The name as written, for lines kept verbatim.
    var writtenName: String
    /// Parameters in order, names upper-cased; vCard 2.1's bare values
    /// (`TEL;CELL:`) have no values.
    var parameters: [(name: String, values: [String])]
    /// The parameters as written, but ENCODING=QUOTED-PRINTABLE and CHARSET,
    /// which describe bytes this line no longer holds.
    var writtenParameters: [String]
    /// The value as text, still escaped as the card wrote it.
    var value: String
    /// The CHARSET the line named, if any.
    var charset: String?

    func parameter(_ name: String) -> [String] {
        parameters.filter { $0.name == name }.flatMap(\.values)
    }

    func has(_ name: String) -> Bool { parameters.contains { $0.name == name } }

    /// TYPE values, lower-cased, including vCard 2.1's bare ones
    /// (`TEL;WORK;VOICE:`) and comma lists (`TYPE=work,voice`).
    var types: [String] {
        parameters.filter { $0.name == "TYPE" || $0.values.isEmpty }
            .flatMap { $0.values.isEmpty ? [$0.name] : $0.values }
            .flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }
    }

    /// The line as it is kept in `extra`: unfolded, its value as text with
    /// newlines escaped (`\n`) as vCard 3.0 and 4.0 write them.
    var keptText: String {
        let head = ([(group.map { $0 + "." } ?? "") + writtenName] + writtenParameters).joined(separator: ";")
        return head + ":" + VCardWriter.escapingLineBreaks(value)
    }

    // MARK: - Reading

    /// The logical lines of one card's bytes with their first line number
    /// (1-based), unfolded: a line starting with a space or tab continues
    /// the one before (RFC folding), as does the line after a
    /// quoted-printable value's soft line break (`=` at the end). Lines end
    /// in LF, CR LF, CR, or CR CR LF.
    ///
    /// Each physical line is appended once to the logical line it continues,
    /// so a card of any number of folds reads in time linear in its size.
    static func logicalLines(_ bytes: [UInt8]) -> [(number: Int, bytes: [UInt8])] {
        var result: [(Int, [UInt8])] = []
        var current: [UInt8] = [], currentNumber = 0, isQuotedPrintable = false
        // The head is scanned as it arrives, each byte once, so that no fold
        // rescans what came before.
        var headEnded = false, scanned = 0, inQuotes = false
        var lineNumber = 0, start = 0
        func finish() {
            if !current.isEmpty { result.append((currentNumber, current)) }
            current = []
            headEnded = false
            scanned = 0
            inQuotes = false
            isQuotedPrintable = false
        }
        func noteHead() {
            while !headEnded && scanned < current.count {
                let byte = current[scanned]
                if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
                if byte == UInt8(ascii: ":") && !inQuotes {
                    headEnded = true
                    isQuotedPrintable = String(decoding: current[..<scanned], as: UTF8.self).uppercased()
                        .contains("QUOTED-PRINTABLE")
                }
                scanned += 1
            }
        }
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            lineNumber += 1
            let line = bytes[start..<end]
            if isQuotedPrintable, current.last == UInt8(ascii: "=") {
                // A soft line break joins the next line as it is, indented
                // or not: the "=" was the line's end, not an escape.
                current.removeLast()
                current += line
            } else if let first = line.first, first == 0x20 || first == 0x09, !current.isEmpty {
                current += line.dropFirst()
            } else if headEnded, endsInEscape(current), !line.contains(UInt8(ascii: ":")) {
                // A backslash that ends a line escapes its line break (vCard
                // 2.1 as Android reads it: an address on several lines), when
                // the next line is no property of its own.
                current.append(UInt8(ascii: "n"))
                current += line
            } else {
                finish()
                if !line.isEmpty {
                    current = Array(line)
                    currentNumber = lineNumber
                }
            }
            noteHead()
            if end >= bytes.count { break }
            start = end + lineEndingLength(bytes[end...])
        }
        finish()
        return result
    }

    /// Whether `bytes` end in an odd number of backslashes: an escape of
    /// what follows, not an escaped backslash.
    private static func endsInEscape(_ bytes: [UInt8]) -> Bool {
        bytes.reversed().prefix { $0 == UInt8(ascii: "\\") }.count % 2 == 1
    }

    /// The bytes of the line ending `rest` starts with: LF, CR LF, CR, or
    /// CR CR LF (iPhone exports of the iOS 6 era), which ends one line, so
    /// that a folded value goes on across it.
    private static func lineEndingLength(_ rest: ArraySlice<UInt8>) -> Int {
        let ending = rest.prefix(3)
        return ending.starts(with: [0x0D, 0x0D, 0x0A]) ? 3 : ending.starts(with: [0x0D, 0x0A]) ? 2 : 1
    }

    /// The offset of the colon that ends a line's head (the first one
    /// outside double quotes), or nil.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        var inQuotes = false
        for (offset, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\"") { inQuotes.toggle() }
            if byte == UInt8(ascii: ":") && !inQuotes { return offset }
        }
        return nil
    }

    /// Parses one logical line; nil when it has no colon or no name.
    /// - parameter legacyCharset: the charset for 8-bit text that names
    ///   none and is not UTF-8.
    init?(_ bytes: [UInt8], legacyCharset: String.Encoding) {
        guard let colon = Self.headEnd(bytes) else { return nil }
        let pieces = Self.headPieces(Self.text(Array(bytes[..<colon]), charset: nil, legacyCharset: legacyCharset))
        let nameWithGroup = pieces[0].trimmingCharacters(in: .whitespaces)
        let nameParts = nameWithGroup.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        // `a.b.NAME` keeps all but the last part as the group.
        if let dot = nameWithGroup.lastIndex(of: ".") {
            group = String(nameWithGroup[..<dot])
            writtenName = String(nameWithGroup[nameWithGroup.index(after: dot)...])
        } else {
            group = nil
            writtenName = nameParts[0]
        }
        name = writtenName.uppercased()
        guard !name.isEmpty else { return nil }
        let (parameters, written, isQuotedPrintable, charset) = Self.readParameters(pieces.dropFirst())
        self.parameters = parameters
        writtenParameters = written
        var valueBytes = Array(bytes[(colon + 1)...])
        if isQuotedPrintable { valueBytes = Self.quotedPrintableBytes(valueBytes) }
        value = Self.text(valueBytes, charset: charset, legacyCharset: legacyCharset)
        self.charset = charset
    }

    /// A head's pieces, split at each semicolon outside double quotes: the
    /// name with its group first, then the parameters as written.
    private static func headPieces(_ head: String) -> [String] {
        var pieces: [String] = [], current = "", inQuotes = false
        for character in head {
            if character == "\"" {
                inQuotes.toggle()
                current.append(character)
            } else if character == ";" && !inQuotes {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        return pieces
    }

    /// The parameters of a head's pieces, as read and as written; the
    /// encoding and charset apart, as they say how to read the value.
    private static func readParameters(_ pieces: ArraySlice<String>)
        -> (parameters: [(String, [String])], written: [String], isQuotedPrintable: Bool, charset: String?) {
        var parameters: [(String, [String])] = [], written: [String] = []
        var isQuotedPrintable = false, charset: String?
        for piece in pieces where !piece.isEmpty {
            guard let equals = piece.firstIndex(of: "=") else {
                if piece.uppercased() == "QUOTED-PRINTABLE" { isQuotedPrintable = true; continue }
                parameters.append((piece.uppercased(), []))
                written.append(piece)
                continue
            }
            let parameterName = piece[..<equals].uppercased()
            let value = String(piece[piece.index(after: equals)...])
            if parameterName.isEmpty {
                // `TEL;=x:1` keeps x as a bare value, as vCard 2.1 writes types.
                if !value.isEmpty {
                    parameters.append((value.uppercased(), []))
                    written.append(value)
                }
                continue
            }
            let unquoted = value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"")
                ? String(value.dropFirst().dropLast()) : value
            switch parameterName {
            case "ENCODING" where unquoted.uppercased() == "QUOTED-PRINTABLE":
                isQuotedPrintable = true
            case "CHARSET":
                charset = unquoted
            default:
                parameters.append((parameterName, [unquoted]))
                written.append(piece)
            }
        }
        return (parameters, written, isQuotedPrintable, charset)
    }

    /// The charset a CHARSET parameter names, if Foundation reads it.
    static func encoding(named name: String) -> String.Encoding? {
        switch name.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "utf-8", "utf8": .utf8
        case "us-ascii", "ascii": .ascii
        case "iso-8859-1", "latin1", "latin-1": .isoLatin1
        case "iso-8859-2", "latin2": .isoLatin2
        case "windows-1250", "cp1250": .windowsCP1250
        case "windows-1251", "cp1251": .windowsCP1251
        case "windows-1252", "cp1252": .windowsCP1252
        case "windows-1253", "cp1253": .windowsCP1253
        case "windows-1254", "cp1254": .windowsCP1254
        case "shift-jis", "sjis", "x-sjis", "ms-kanji", "windows-31j", "cp932": .shiftJIS
        case "euc-jp": .japaneseEUC
        case "iso-2022-jp": .iso2022JP
        case "utf-16": .utf16
        case "utf-16be": .utf16BigEndian
        case "utf-16le": .utf16LittleEndian
        default: nil
        }
    }

    private static let singleByteCharsets: Set<String.Encoding> = [
        .isoLatin1, .isoLatin2, .windowsCP1250, .windowsCP1251, .windowsCP1252, .windowsCP1253, .windowsCP1254,
    ]

    /// Bytes as text: in `charset` when named and readable in it; else
    /// UTF-8 when valid; else the legacy charset; else Latin-1, which reads
    /// every byte, so no text gains a U+FFFD it did not hold.
    static func text(_ bytes: [UInt8], charset: String?, legacyCharset: String.Encoding) -> String {
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        let data = Data(bytes)
        if let charset, let encoding = encoding(named: charset) {
            // A one-byte charset reads any bytes, so bytes that are valid
            // UTF-8 under it are taken as UTF-8, which they almost surely
            // are (a card that names ISO-8859-1 and holds UTF-8's "Ñ").
            if singleByteCharsets.contains(encoding), let text = String(validating: bytes, as: UTF8.self) { return text }
            if let text = String(data: data, encoding: encoding) { return text }
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(data: data, encoding: legacyCharset) ?? String(data: data, encoding: .isoLatin1)
            ?? String(decoding: bytes, as: UTF8.self)
    }

    static func quotedPrintableBytes(_ utf8: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "="), index + 2 < utf8.count,
               let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: - Values

    /// Splits at unescaped `separator` (none when nil) and unescapes each part.
    static func components(_ value: String, separator: Character? = ";") -> [String] {
        var parts: [String] = [], current = "", escaped = false
        for character in value {
            if escaped {
                switch character {
                case "n", "N": current.append("\n")
                default: current.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == separator {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        parts.append(current)
        return parts
    }

    /// True when `value` holds `separator` unescaped.
    static func holdsUnescaped(_ separator: Character, in value: String) -> Bool {
        var escaped = false
        for character in value {
            if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == separator { return true }
        }
        return false
    }

    /// The value unescaped as one text.
    var text: String { Self.components(value, separator: nil)[0] }

    /// The structured value's components, unescaped.
    var components: [String] { Self.components(value) }
}

/// Text files in UTF-16 or UTF-32 (told by their byte-order mark) as UTF-8,
/// so that every reader sees one encoding; nil for any other file.
package enum UnicodeTranscoding {
    /// UTF-16 without a byte-order mark (macOS Contacts' UTF-16 export):
    /// told by its first eight bytes, ASCII text with a zero byte before
    /// (big-endian) or after (little-endian) each character, as every
    /// vCard and JSON file starts.
    private static func unmarkedUTF16(_ bytes: UnsafeBufferPointer<UInt8>) -> String.Encoding? {
        guard bytes.count >= 8 else { return nil }
        let head = Array(bytes.prefix(8))
        let evens = stride(from: 0, to: 8, by: 2).map { head[$0] }, odds = stride(from: 1, to: 8, by: 2).map { head[$0] }
        func isText(_ bytes: [UInt8]) -> Bool { bytes.allSatisfy { (0x09...0x7E).contains($0) } }
        if evens.allSatisfy({ $0 == 0 }) && isText(odds) { return .utf16BigEndian }
        if odds.allSatisfy({ $0 == 0 }) && isText(evens) { return .utf16LittleEndian }
        return nil
    }

    /// Whether a file beginning with `head` (its first eight bytes, or all
    /// of a shorter one) is UTF-16 or UTF-32, which ``utf8(_:)`` reads.
    static func isWide(_ head: UnsafeBufferPointer<UInt8>) -> Bool {
        head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0x00, 0x00, 0xFE, 0xFF])
            || unmarkedUTF16(head) != nil
    }

    /// The file as UTF-8, or nil when it is neither UTF-16 nor UTF-32.
    /// Decoded twice, a piece at a time, once to count the bytes and once
    /// into exactly that many: a file costs its UTF-8 size, not copies of
    /// itself as text nor room for the longest UTF-8 it might have been.
    /// A unit that is no character (a lone surrogate) becomes U+FFFD.
    package static func utf8(_ bytes: UnsafeBufferPointer<UInt8>) -> Data? {
        let (width, isBigEndian, bomLength): (Int, Bool, Int)
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            (width, isBigEndian, bomLength) = (4, false, 4)
        } else if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) {
            (width, isBigEndian, bomLength) = (4, true, 4)
        } else if bytes.starts(with: [0xFF, 0xFE]) {
            (width, isBigEndian, bomLength) = (2, false, 2)
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            (width, isBigEndian, bomLength) = (2, true, 2)
        } else if let unmarked = unmarkedUTF16(bytes) {
            (width, isBigEndian, bomLength) = (2, unmarked == .utf16BigEndian, 0)
        } else {
            return nil
        }
        let body = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[bomLength...])
        func forEachPiece(_ use: (String) -> Void) {
            if width == 2 {
                pieces(of: body, as: UTF16.self, isBigEndian: isBigEndian, use)
            } else {
                pieces(of: body, as: UTF32.self, isBigEndian: isBigEndian, use)
            }
        }
        var size = 0
        forEachPiece { size += $0.utf8.count }
        var data = Data(count: size)
        guard size > 0 else { return data }
        data.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) in
            var written = 0
            forEachPiece { piece in
                var piece = piece
                piece.withUTF8 { utf8 in
                    UnsafeMutableRawBufferPointer(rebasing: output[written...]).copyMemory(from: UnsafeRawBufferPointer(utf8))
                    written += utf8.count
                }
            }
        }
        return data
    }

    /// The text of `body`'s units, 64 Ki units a piece, each decoded by
    /// the standard library; a piece never ends between the two halves of
    /// a surrogate pair.
    private static func pieces<Codec: UnicodeCodec>(
        of body: UnsafeRawBufferPointer, as codec: Codec.Type, isBigEndian: Bool, _ use: (String) -> Void
    ) where Codec.CodeUnit: FixedWidthInteger {
        let width = MemoryLayout<Codec.CodeUnit>.size, count = body.count / width
        let isSwapped = isBigEndian != (UInt16(1).bigEndian == 1)
        var units = [Codec.CodeUnit](repeating: 0, count: 1 << 16)
        var start = 0
        while start < count {
            var length = min(units.count, count - start)
            units.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: body[start * width ..< (start + length) * width])) }
            if isSwapped {
                for index in 0..<length { units[index] = units[index].byteSwapped }
            }
            if width == 2, start + length < count, (0xD800...0xDBFF).contains(units[length - 1]) { length -= 1 }
            use(String(decoding: units[..<length], as: Codec.self))
            start += length
        }
    }
}
