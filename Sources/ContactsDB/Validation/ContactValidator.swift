import Foundation

/// SPEC §Validation: checks a draft and returns it tidied (names trimmed and
/// collapsed, labels canonical, services lower-case), or throws
/// ``ContactsDBError/invalidContact(field:reason:)`` naming the first field
/// that breaks a rule.
enum ContactValidator {
    /// Longest accepted text field, in characters: a limit stated as an error
    /// rather than a silent truncation.
    static let maxTextLength = 1_000
    /// Most phones, emails, addresses or messengers one contact may hold.
    static let maxChildren = 100

    /// - parameter path: the JSON path of the contact (`contacts[3]`), or ""
    ///   for a contact given on its own. Field paths below it are
    ///   autoclosures, built only when an error names one.
    static func validated(_ draft: ContactDraft, at path: String = "") throws -> ContactDraft {
        func field(_ name: String) -> String { JSONPath.join(path, name) }
        var result = draft
        if let id = draft.id {
            let tidied = Text.trimmed(id, in: .whitespaces)
            try require(!tidied.isEmpty, field("id"), "an id cannot be empty; leave it out to get a new one.")
            try checkText(tidied, field("id"))
            result.id = tidied
        }
        result.firstName = try name(draft.firstName, field("firstName"))
        result.lastName = try name(draft.lastName, field("lastName"))
        result.company = try name(draft.company, field("company"))
        try require(
            result.firstName != nil || result.lastName != nil || result.company != nil,
            field("firstName"), "a contact needs at least one of first name, last name or company.")
        if let age = draft.age {
            try require((0...999).contains(age), field("age"), "\(age) is out of range; an age is a whole number from 0 to 999.")
        }
        for (list, count) in [("phones", draft.phones.count), ("emails", draft.emails.count),
                              ("addresses", draft.addresses.count), ("messengers", draft.messengers.count)] {
            try require(count <= maxChildren, field(list), "\(count) entries is too many; a contact holds at most \(maxChildren).")
        }
        result.phones = try draft.phones.enumerated().map { index, phone in
            try validated(phone, at: field("phones[\(index)]"))
        }
        result.emails = try draft.emails.enumerated().map { index, email in
            try validated(email, at: field("emails[\(index)]"))
        }
        result.addresses = try draft.addresses.enumerated().map { index, address in
            try validated(address, at: field("addresses[\(index)]"))
        }
        result.messengers = try draft.messengers.enumerated().map { index, messenger in
            try validated(messenger, at: field("messengers[\(index)]"))
        }
        var groupKeys: Set<String> = []
        // A set of names, kept in name order as the engine returns them.
        result.groups = try draft.groups.enumerated().compactMap { index, name in
            let name = try groupName(name, at: field("groups[\(index)]"))
            return groupKeys.insert(GroupWriter.key(name)).inserted ? name : nil
        }.sorted(by: Collation.precedes)
        return result
    }

    // MARK: - Children

    private static func validated(_ phone: Phone, at path: @autoclosure () -> String) throws -> Phone {
        let value = Text.tidy(phone.value)
        try checkText(value, "\(path()).value")
        func isAllowed(_ byte: UInt8, at offset: Int) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || " -.()".utf8.contains(byte)
                || (byte == UInt8(ascii: "+") && offset == 0)
        }
        if let (_, scalar) = value.unicodeScalars.enumerated()
            .first(where: { !$1.isASCII || !isAllowed(UInt8($1.value), at: $0) }) {
            throw ContactsDBError.invalidContact(field: "\(path()).value", reason:
                "\(quoted(value)) contains \(quoted(String(scalar))); a phone holds digits, an optional leading \"+\", and only spaces, dashes, dots and parentheses besides.")
        }
        let digitCount = value.utf8.count { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        try require((9...15).contains(digitCount), "\(path()).value",
            "\(quoted(value)) has \(digitCount) digits; a phone needs 9 to 15.")
        return Phone(type: try label(phone.type, default: .mobile, at: "\(path()).type"), value: value)
    }

    private static func validated(_ email: Email, at path: @autoclosure () -> String) throws -> Email {
        let value = Text.trimmed(email.value)
        try checkText(value, "\(path()).value")
        try require(isEmailAddress(value), "\(path()).value",
            "\(quoted(value)) is not an email address; it needs one \"@\" between a non-empty local part and a dotted domain, and no spaces.")
        return Email(type: try label(email.type, default: .home, at: "\(path()).type"), value: value)
    }

    private static func validated(_ address: Address, at path: @autoclosure () -> String) throws -> Address {
        var result = address
        for (name, keyPath) in [("street1", \Address.street1), ("street2", \.street2), ("city", \.city),
                                ("state", \.state), ("zipcode", \.zipcode), ("country", \.country)] {
            result[keyPath: keyPath] = Text.tidy(address[keyPath: keyPath])
            try checkText(result[keyPath: keyPath], "\(path()).\(name)")
        }
        let isEmpty = [result.street1, result.street2, result.city, result.state, result.zipcode, result.country]
            .allSatisfy(\.isEmpty)
        try require(!isEmpty, path(), "an address needs at least one of street1, street2, city, state, zipcode or country.")
        result.type = try label(address.type, default: .home, at: "\(path()).type")
        return result
    }

    private static func validated(_ messenger: Messenger, at path: @autoclosure () -> String) throws -> Messenger {
        let service = Text.trimmed(messenger.service, in: .whitespaces).lowercased()
        try require(MessengerService(rawValue: service) != nil, "\(path()).service",
            "\(quoted(messenger.service)) is not a messenger service; use one of \(MessengerService.allCases.map(\.rawValue).joined(separator: ", ")).")
        let handle = Text.tidy(messenger.handle)
        try require(!handle.isEmpty, "\(path()).handle", "a \(service) handle cannot be empty.")
        try checkText(handle, "\(path()).handle")
        return Messenger(service: service, handle: handle)
    }

    /// Longest group name, in characters.
    static let maxGroupNameLength = 100

    /// A group name, tidied: non-empty, at most 100 characters.
    static func groupName(_ name: String, at field: @autoclosure () -> String) throws -> String {
        let tidied = Text.tidy(name)
        try require(!tidied.isEmpty, field(), "a group name cannot be empty.")
        try require(tidied.count <= maxGroupNameLength, field(),
            "the name is \(tidied.count) characters long; a group name holds at most \(maxGroupNameLength).")
        try checkText(tidied, field())
        return tidied
    }

    // MARK: - Non public

    /// One "@" between a non-empty local part and a domain of two or more
    /// non-empty dot-separated labels; no white space anywhere.
    private static func isEmailAddress(_ value: String) -> Bool {
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

    private static func name(_ name: String?, _ field: @autoclosure () -> String) throws -> String? {
        let tidied = Text.tidyOrNil(name)
        if let tidied { try checkText(tidied, field()) }
        return tidied
    }

    /// A well-known label in its canonical spelling, a custom one as given,
    /// or `fallback` when empty.
    private static func label(_ label: String, default fallback: WellKnownLabel, at field: @autoclosure () -> String) throws -> String {
        let tidied = Text.tidy(label)
        try checkText(tidied, field())
        if tidied.isEmpty { return fallback.rawValue }
        return WellKnownLabel(rawValue: tidied.lowercased())?.rawValue ?? tidied
    }

    /// The limits every text field shares: its length, and no control
    /// characters (tabs and newlines are tidied into spaces before this).
    private static func checkText(_ text: String, _ field: @autoclosure () -> String) throws {
        // Characters are counted as Unicode scalars: a grapheme cluster may
        // hold any number of them (a letter and 10,000 accents is one), so
        // counting clusters would leave the stored size unbounded. A scalar
        // takes at least one byte, so only long texts need counting.
        if text.utf8.count > maxTextLength {
            let count = text.unicodeScalars.count
            try require(count <= maxTextLength, field(), "the value is \(count) characters long; the limit is \(maxTextLength).")
        }
        // The control characters (Cc) are U+0000–001F and U+007F–009F: in
        // UTF-8, a byte below 0x20, 0x7F, or 0xC2 followed by 0x80–0x9F.
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) {
                throw ContactsDBError.invalidContact(
                    field: field(), reason: String(format: "contains the control character U+%04X; remove it.", byte))
            }
            previous = byte
        }
    }

    private static func require(_ condition: Bool, _ field: @autoclosure () -> String, _ reason: @autoclosure () -> String) throws {
        if !condition { throw ContactsDBError.invalidContact(field: field(), reason: reason()) }
    }

    /// A value for a message, shortened so one bad field cannot flood stderr.
    private static func quoted(_ value: String) -> String {
        let shown = value.count > 40 ? value.prefix(40) + "…" : Substring(value)
        return "\"\(shown.unicodeScalars.map { $0.properties.isWhitespace || $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined())\""
    }
}
