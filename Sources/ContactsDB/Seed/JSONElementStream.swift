import Foundation

/// Walks a contacts file — a top-level array, or an object whose one key is
/// `"contacts"` — and yields each element's bytes in turn, checking JSON
/// syntax on the way so that a malformed file is reported with its line and
/// column. Only one element is decoded at a time, so a large (memory-mapped)
/// file is imported in bounded memory.
struct JSONElementStream {
    /// Deeper nesting than this is refused; a contact needs 3 levels.
    static let maxDepth = 32

    let data: Data
    let fileName: String

    /// Calls `body` with each element's index, bytes and byte offset.
    func forEachElement(_ body: (Int, Data, Int) throws -> Void) throws {
        try data.withUnsafeBytes { raw in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self), fileName: fileName)
            try scanner.scanDocument { start, end, index in
                try body(index, data.subdata(in: start..<end), start)
            }
        }
    }

    /// Checks that the data is one well-formed JSON value.
    func checkSyntax() throws {
        try data.withUnsafeBytes { raw in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self), fileName: fileName)
            try scanner.scanDocument(singleValue: true) { _, _, _ in }
        }
    }

    /// 1-based line and column of a byte offset.
    func location(ofOffset offset: Int) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for index in 0..<min(offset, data.count) where data[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: data[lineStart..<min(offset, data.count)], as: UTF8.self).count + 1
        return (line, column)
    }

    // MARK: - Non public

    private struct SyntaxError: Error {
        var offset: Int
        var reason: String
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let fileName: String
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>, fileName: String) {
            self.bytes = bytes
            self.fileName = fileName
        }

        mutating func scanDocument(singleValue: Bool = false, _ element: (Int, Int, Int) throws -> Void) throws {
            do {
                skipByteOrderMark()
                skipWhitespace()
                switch peek() {
                case _ where singleValue && position < bytes.count:
                    try scanValue(depth: 1)
                case UInt8(ascii: "["):
                    try scanElements(element)
                case UInt8(ascii: "{"):
                    try scanContactsObject(element)
                case nil:
                    throw SyntaxError(offset: position, reason: "the file is empty; expected an array of contacts")
                default:
                    throw SyntaxError(offset: position, reason: "expected an array of contacts or an object with \"contacts\"")
                }
                skipWhitespace()
                if position < bytes.count {
                    throw SyntaxError(offset: position, reason: "unexpected text after the contacts")
                }
            } catch let error as SyntaxError {
                let stream = JSONElementStream(data: Data(buffer: bytes), fileName: fileName)
                let (line, column) = stream.location(ofOffset: error.offset)
                throw ContactsDBError.malformedJSON(file: fileName, line: line, column: column, reason: error.reason)
            }
        }

        // MARK: Top level

        private mutating func scanContactsObject(_ element: (Int, Int, Int) throws -> Void) throws {
            position += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                throw SyntaxError(offset: position, reason: "the object has no \"contacts\" key")
            }
            var sawContacts = false
            while true {
                let keyStart = position
                let key = try scanKey()
                guard key == "contacts", !sawContacts else {
                    throw SyntaxError(
                        offset: keyStart,
                        reason: sawContacts ? "\"contacts\" is given twice" : "unknown key \"\(key)\"; the top-level object holds only \"contacts\"")
                }
                sawContacts = true
                skipWhitespace()
                guard peek() == UInt8(ascii: "[") else {
                    throw SyntaxError(offset: position, reason: "\"contacts\" must be an array")
                }
                try scanElements(element)
                skipWhitespace()
                if try endOfContainer(closing: UInt8(ascii: "}")) { return }
            }
        }

        private mutating func scanElements(_ element: (Int, Int, Int) throws -> Void) throws {
            position += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { position += 1; return }
            var index = 0
            while true {
                skipWhitespace()
                let start = position
                try scanValue(depth: 2)
                try element(start, position, index)
                index += 1
                skipWhitespace()
                if try endOfContainer(closing: UInt8(ascii: "]")) { return }
            }
        }

        // MARK: Values

        private mutating func scanValue(depth: Int) throws {
            guard depth <= JSONElementStream.maxDepth else {
                throw SyntaxError(offset: position, reason: "nesting deeper than \(JSONElementStream.maxDepth) levels")
            }
            skipWhitespace()
            guard let byte = peek() else {
                throw SyntaxError(offset: position, reason: "the file ends where a value was expected")
            }
            switch byte {
            case UInt8(ascii: "{"):
                position += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") { position += 1; return }
                while true {
                    _ = try scanKey()
                    try scanValue(depth: depth + 1)
                    skipWhitespace()
                    if try endOfContainer(closing: UInt8(ascii: "}")) { return }
                }
            case UInt8(ascii: "["):
                position += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "]") { position += 1; return }
                while true {
                    try scanValue(depth: depth + 1)
                    skipWhitespace()
                    if try endOfContainer(closing: UInt8(ascii: "]")) { return }
                }
            case UInt8(ascii: "\""):
                try scanString()
            case UInt8(ascii: "t"):
                try scanLiteral("true")
            case UInt8(ascii: "f"):
                try scanLiteral("false")
            case UInt8(ascii: "n"):
                try scanLiteral("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try scanNumber()
            default:
                throw SyntaxError(offset: position, reason: "unexpected \(describe(byte)) where a value was expected")
            }
        }

        /// Scans `"key" :` and returns the key (escapes left as written).
        private mutating func scanKey() throws -> String {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw SyntaxError(offset: position, reason: "expected a quoted key")
            }
            let start = position + 1
            try scanString()
            let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)]), as: UTF8.self)
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw SyntaxError(offset: position, reason: "expected \":\" after the key \"\(key)\"")
            }
            position += 1
            return key
        }

        private mutating func scanString() throws {
            let start = position
            position += 1
            while let byte = peek() {
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return
                case UInt8(ascii: "\\"):
                    guard let escaped = peek() else { break }
                    if escaped == UInt8(ascii: "u") {
                        for offset in 1...4 {
                            guard position + offset < bytes.count, isHexDigit(bytes[position + offset]) else {
                                throw SyntaxError(offset: position - 1, reason: "a \\u escape needs 4 hex digits")
                            }
                        }
                        position += 5
                    } else if Array("\"\\/bfnrt".utf8).contains(escaped) {
                        position += 1
                    } else {
                        throw SyntaxError(offset: position - 1, reason: "unknown escape \\\(describe(escaped))")
                    }
                case 0..<0x20:
                    throw SyntaxError(offset: position - 1, reason: "a control character (\(describe(byte))) inside a string; escape it")
                default:
                    continue
                }
            }
            throw SyntaxError(offset: start, reason: "a string that is never closed")
        }

        private mutating func scanNumber() throws {
            let start = position
            if peek() == UInt8(ascii: "-") { position += 1 }
            guard let first = peek(), isDigit(first) else {
                throw SyntaxError(offset: start, reason: "a malformed number")
            }
            position += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if peek() == UInt8(ascii: ".") {
                position += 1
                guard let digit = peek(), isDigit(digit) else { throw SyntaxError(offset: start, reason: "a malformed number") }
                skipDigits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                position += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
                guard let digit = peek(), isDigit(digit) else { throw SyntaxError(offset: start, reason: "a malformed number") }
                skipDigits()
            }
        }

        private mutating func scanLiteral(_ literal: StaticString) throws {
            let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            guard position + expected.count <= bytes.count,
                  expected.indices.allSatisfy({ bytes[position + $0] == expected[$0] })
            else {
                throw SyntaxError(offset: position, reason: "unexpected \(describe(peek()!)) where a value was expected")
            }
            position += expected.count
        }

        // MARK: Helpers

        /// After a member: consumes "," (false) or the closing byte (true).
        private mutating func endOfContainer(closing: UInt8) throws -> Bool {
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
                return false
            case closing:
                position += 1
                return true
            case nil:
                throw SyntaxError(offset: position, reason: "the file ends inside \(closing == UInt8(ascii: "]") ? "an array" : "an object")")
            default:
                throw SyntaxError(offset: position, reason: "expected \",\" or \"\(describe(closing))\" but found \(describe(peek()!))")
            }
        }

        private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        private mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        private mutating func skipDigits() {
            while let byte = peek(), isDigit(byte) { position += 1 }
        }

        private mutating func skipByteOrderMark() {
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        }

        private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

        private func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }

        private func describe(_ byte: UInt8) -> String {
            (0x21..<0x7F).contains(byte) ? "\"\(Character(UnicodeScalar(byte)))\"" : String(format: "byte 0x%02X", byte)
        }
    }
}
