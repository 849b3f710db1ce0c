import Foundation

/// A forward-only reader over JSON bytes that decodes values where they
/// stand, so that a contacts file is read in one pass without building a
/// tree or copying it. Syntax errors carry their line and column.
struct JSONReader {
    /// Deeper nesting than this is refused; a contact needs 3 levels.
    static let maxDepth = 32

    let bytes: UnsafeBufferPointer<UInt8>
    let fileName: String
    private(set) var position = 0
    /// Where the key of the member being read starts, for errors about it.
    private(set) var keyPosition = 0
    private var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, fileName: String) {
        self.bytes = bytes
        self.fileName = fileName
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }  // BOM
    }

    /// What the next value is, judged by its first byte; nil at the end.
    enum Kind { case object, array, string, number, bool, null }

    mutating func peekKind() -> Kind? {
        skipWhitespace()
        guard let byte = peek() else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: return nil
        }
    }

    // MARK: - Values

    /// Reads `null` if it comes next and says whether it did.
    mutating func readNull() throws -> Bool {
        guard peekKind() == .null else { return false }
        try expectLiteral("null")
        return true
    }

    mutating func readBool() throws -> Bool {
        let isTrue = peek() == UInt8(ascii: "t")
        try expectLiteral(isTrue ? "true" : "false")
        return isTrue
    }

    mutating func readString() throws -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a string") }
        let start = position
        position += 1
        var segmentStart = position
        var decoded: [UInt8] = []  // only filled when the string holds escapes
        var hasEscapes = false
        var allBits: UInt8 = 0  // below 0x80 while the bytes are ASCII
        while true {
            guard let byte = peek() else { throw syntaxError("a string that is never closed", at: start) }
            allBits |= byte
            switch byte {
            case UInt8(ascii: "\""):
                let segment = UnsafeBufferPointer(rebasing: bytes[segmentStart..<position])
                position += 1
                if hasEscapes {
                    decoded.append(contentsOf: segment)
                    return try decoded.withUnsafeBufferPointer { try makeString($0, start: start) }
                }
                // ASCII is UTF-8 as it stands: most keys and values are.
                if allBits < 0x80 { return String(decoding: segment, as: UTF8.self) }
                return try makeString(segment, start: start)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[segmentStart..<position]))
                try readEscape(into: &decoded)
                segmentStart = position
            case 0..<0x20:
                throw syntaxError("a control character inside a string; escape it")
            default:
                position += 1
            }
        }
    }

    /// The number's text, checked against JSON's grammar.
    mutating func readNumber() throws -> Substring {
        skipWhitespace()
        let start = position
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), isDigit(first) else { throw syntaxError("a malformed number", at: start) }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard let digit = peek(), isDigit(digit) else { throw syntaxError("a malformed number", at: start) }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard let digit = peek(), isDigit(digit) else { throw syntaxError("a malformed number", at: start) }
            skipDigits()
        }
        return Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// Calls `body` with each member's key; `body` must read the value.
    mutating func readObject(_ body: (inout JSONReader, String) throws -> Void) throws {
        try enterContainer(opening: UInt8(ascii: "{"), closing: UInt8(ascii: "}"), what: "an object") { reader in
            reader.skipWhitespace()
            guard reader.peek() == UInt8(ascii: "\"") else { throw reader.syntaxError("expected a quoted key") }
            let keyStart = reader.position
            let key = try reader.readString()
            reader.keyPosition = keyStart
            reader.skipWhitespace()
            guard reader.peek() == UInt8(ascii: ":") else {
                throw reader.syntaxError("expected \":\" after the key \"\(key)\"")
            }
            reader.position += 1
            try body(&reader, key)
        }
    }

    /// Calls `body` with each element's index; `body` must read the value.
    mutating func readArray(_ body: (inout JSONReader, Int) throws -> Void) throws {
        var index = 0
        try enterContainer(opening: UInt8(ascii: "["), closing: UInt8(ascii: "]"), what: "an array") { reader in
            try body(&reader, index)
            index += 1
        }
    }

    /// Reads and discards any value, checking its syntax.
    mutating func skipValue() throws {
        switch peekKind() {
        case .object: try readObject { reader, _ in try reader.skipValue() }
        case .array: try readArray { reader, _ in try reader.skipValue() }
        case .string: _ = try readString()
        case .number: _ = try readNumber()
        case .bool: try expectLiteral(peek() == UInt8(ascii: "t") ? "true" : "false")
        case .null: try expectLiteral("null")
        case nil:
            throw syntaxError(peek().map { "unexpected \(describe($0)) where a value was expected" }
                              ?? "the file ends where a value was expected")
        }
    }

    /// Throws unless only white space is left.
    mutating func expectEnd() throws {
        skipWhitespace()
        if position < bytes.count { throw syntaxError("unexpected text after the contacts") }
    }

    // MARK: - Errors

    func syntaxError(_ reason: String, at offset: Int? = nil) -> ContactsDBError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1, lineStart = 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<offset]), as: UTF8.self).count + 1
        return .malformedJSON(file: fileName, line: line, column: column, reason: reason)
    }

    /// The error where a value should start but none does: the file ends
    /// early, or holds something that is not JSON there.
    mutating func missingValueError() -> ContactsDBError {
        skipWhitespace()
        guard let byte = peek() else { return syntaxError("the file ends early, where a value should follow") }
        return syntaxError("expected a JSON value but found \(describe(byte))")
    }

    // MARK: - Non public

    private mutating func enterContainer(
        opening: UInt8, closing: UInt8, what: String, _ member: (inout JSONReader) throws -> Void
    ) throws {
        skipWhitespace()
        guard peek() == opening else { throw syntaxError("expected \(what)") }
        guard depth < Self.maxDepth else { throw syntaxError("nesting deeper than \(Self.maxDepth) levels") }
        depth += 1
        position += 1
        skipWhitespace()
        if peek() == closing {
            position += 1
            depth -= 1
            return
        }
        while true {
            try member(&self)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
            case closing:
                position += 1
                depth -= 1
                return
            case nil:
                throw syntaxError("the file ends inside \(what)")
            case let byte?:
                throw syntaxError("expected \",\" or \"\(Character(UnicodeScalar(closing)))\" but found \(describe(byte))")
            }
        }
    }

    private static let simpleEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
        UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    private mutating func readEscape(into decoded: inout [UInt8]) throws {
        let escapeStart = position
        position += 1
        guard let escaped = peek() else { throw syntaxError("a string that is never closed", at: escapeStart) }
        position += 1
        if let byte = Self.simpleEscapes[escaped] {
            decoded.append(byte)
            return
        }
        guard escaped == UInt8(ascii: "u") else {
            throw syntaxError("unknown escape \\\(describe(escaped))", at: escapeStart)
        }
        var scalar = try readHex4(escapeStart)
        if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate must be followed by \u and a low surrogate.
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else { throw syntaxError("a lone surrogate \\u escape", at: escapeStart) }
            position += 2
            let low = try readHex4(escapeStart)
            guard (0xDC00..<0xE000).contains(low) else { throw syntaxError("a lone surrogate \\u escape", at: escapeStart) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw syntaxError("a lone surrogate \\u escape", at: escapeStart)
        }
        // Surrogates were combined or refused above, so every scalar is valid.
        guard let unicodeScalar = UnicodeScalar(scalar) else {
            throw syntaxError("an invalid \\u escape", at: escapeStart)
        }
        decoded.append(contentsOf: String(unicodeScalar).utf8)
    }

    private mutating func readHex4(_ escapeStart: Int) throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw syntaxError("a \\u escape needs 4 hex digits", at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntaxError("a \\u escape needs 4 hex digits", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// The bytes as a string, refused unless they are UTF-8: decoded on the
    /// standard library's fast path, which repairs what is not, and then
    /// compared with what it made (a repair writes U+FFFD where the bytes
    /// were not UTF-8, so the two differ exactly then). `String(validating:)`
    /// took a generic path that cost 4% of an import's instructions.
    private func makeString(_ utf8: UnsafeBufferPointer<UInt8>, start: Int) throws -> String {
        var string = String(decoding: utf8, as: UTF8.self)
        let isUTF8 = string.utf8.count == utf8.count && string.withUTF8 { made in
            made.isEmpty || memcmp(made.baseAddress!, utf8.baseAddress!, made.count) == 0
        }
        guard isUTF8 else { throw syntaxError("a string that is not valid UTF-8", at: start) }
        return string
    }

    private mutating func expectLiteral(_ literal: String) throws {
        skipWhitespace()
        for byte in literal.utf8 {
            guard peek() == byte else {
                throw syntaxError(peek().map { "unexpected \(describe($0)) where a value was expected" }
                                  ?? "the file ends where a value was expected")
            }
            position += 1
        }
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { position += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "\"\(Character(UnicodeScalar(byte)))\"" : String(format: "byte 0x%02X", byte)
    }
}
