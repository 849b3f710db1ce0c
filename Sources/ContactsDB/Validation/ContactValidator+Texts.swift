import Foundation

/// The checks of single texts that the validator and other typed input
/// (group names) share.
extension ContactValidator {
    /// Longest group name, in characters.
    package static let maxGroupNameLength = 100

    /// A group name, tidied: non-empty, at most 100 characters.
    package static func groupName(_ name: String, at field: @autoclosure () -> String) throws -> String {
        let tidied = Text.tidy(name)
        try require(!tidied.isEmpty, field(), "a group name cannot be empty.")
        try require(tidied.count <= maxGroupNameLength, field(),
            "the name is \(tidied.count) characters long; a group name holds at most \(maxGroupNameLength).")
        try checkText(tidied, field())
        return tidied
    }

    /// One "@" between a non-empty local part and a domain of two or more
    /// non-empty dot-separated labels; no white space anywhere.
    package static func isEmailAddress(_ value: String) -> Bool {
        // ASCII white space is refused byte by byte below; other spaces here.
        if value.utf8.contains(where: { $0 >= 0x80 }), value.unicodeScalars.contains(where: \.properties.isWhitespace) {
            return false
        }
        var atCount = 0, localLength = 0, labelLength = 0, labels = 0
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "@"):
                atCount += 1
                guard atCount == 1, localLength > 0 else { return false }
            case UInt8(ascii: ".") where atCount == 1:
                guard labelLength > 0 else { return false }
                labels += 1
                labelLength = 0
            case 0x09...0x0D, 0x20:
                return false
            default:
                if atCount == 0 { localLength += 1 } else { labelLength += 1 }
            }
        }
        return atCount == 1 && labels >= 1 && labelLength > 0
    }

    /// The limits every typed text field shares: its length, and no control
    /// characters (tabs and newlines are tidied into spaces before this).
    package static func checkText(_ text: String, _ field: @autoclosure () -> String) throws {
        // Characters are counted as Unicode scalars: a grapheme cluster may
        // hold any number of them (a letter and 10,000 accents is one), so
        // counting clusters would leave the stored size unbounded. A scalar
        // takes at least one byte, so only long texts need counting.
        if text.utf8.count > maxTextLength {
            let count = text.unicodeScalars.count
            try require(count <= maxTextLength, field(), "the value is \(count) characters long; the limit is \(maxTextLength).")
        }
        try checkControlCharacters(text, field(), allowingNewlines: false)
    }

    /// No control characters (Cc: U+0000–001F and U+007F–009F; in UTF-8, a
    /// byte below 0x20, 0x7F, or 0xC2 followed by 0x80–0x9F), but newlines
    /// and tabs where `allowingNewlines`.
    static func checkControlCharacters(_ text: String, _ field: @autoclosure () -> String, allowingNewlines: Bool) throws {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if allowingNewlines && (byte == 0x0A || byte == 0x09) {
                previous = byte
                continue
            }
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) {
                throw ContactsDBError.invalidContact(
                    field: field(), reason: String(format: "contains the control character U+%04X; remove it.", byte))
            }
            previous = byte
        }
    }

    package static func require(_ condition: Bool, _ field: @autoclosure () -> String, _ reason: @autoclosure () -> String) throws {
        if !condition { throw ContactsDBError.invalidContact(field: field(), reason: reason()) }
    }

    /// A value for a message, shortened so one bad field cannot flood stderr.
    package static func quoted(_ value: String) -> String {
        let shown = value.count > 40 ? value.prefix(40) + "…" : Substring(value)
        return "\"\(shown.unicodeScalars.map { $0.properties.isWhitespace || $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined())\""
    }
}
