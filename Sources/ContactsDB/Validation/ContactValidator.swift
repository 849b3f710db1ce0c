import Foundation

/// SPEC §Validation: checks a draft and returns it tidied (names trimmed and
/// collapsed, labels canonical, services lower-case), or throws
/// ``ContactsDBError/invalidContact(field:reason:)`` naming the first field
/// that breaks a rule.
///
/// What a person types meets every rule; what an import brings is what
/// another address book already holds, kept whenever it can be read: a
/// value the typed rules refuse (a short code, a dotless email domain, a
/// card named only by its phone) is kept and counted in ``UnusualValues``.
package enum ContactValidator {
    /// Longest typed text field, in characters: a limit stated as an error
    /// rather than a silent truncation.
    package static let maxTextLength = 1_000
    /// Longest imported text field, and longest note, in UTF-8 bytes.
    package static let maxLongTextBytes = 65_536
    /// Longest extra property line (a photo kept as given fits).
    package static let maxExtraLineBytes = 16 << 20
    /// Most phones, emails, addresses, messengers or entries of any other
    /// list one contact may hold.
    package static let maxChildren = 100

    /// Whose values a draft holds.
    package enum Origin {
        /// Typed by a person (`add`, `update`): every rule applies.
        case typed
        /// Read from another address book: kept whenever it can be read.
        case imported
    }

    /// - parameter path: the JSON path of the contact (`contacts[3]`), or ""
    ///   for a contact given on its own. Field paths below it are
    ///   autoclosures, built only when an error names one.
    package static func validated(_ draft: ContactDraft, at path: String = "") throws -> ContactDraft {
        var unusual = UnusualValues()
        return try Check(origin: .typed, path: path).validated(draft, counting: &unusual)
    }

    /// An imported draft, tidied, with the values typed input would refuse
    /// added to `unusual`.
    package static func imported(_ draft: ContactDraft, at path: String, counting unusual: inout UnusualValues) throws -> ContactDraft {
        try Check(origin: .imported, path: path).validated(draft, counting: &unusual)
    }

    private struct Check {
        let origin: Origin
        let path: String

        var isTyped: Bool { origin == .typed }

        func field(_ name: String) -> String { JSONPath.join(path, name) }

        func validated(_ draft: ContactDraft, counting unusual: inout UnusualValues) throws -> ContactDraft {
            var result = draft
            if let id = draft.id {
                let tidied = Text.trimmed(id, in: .whitespaces)
                try require(!tidied.isEmpty, field("id"), "an id cannot be empty; leave it out to get a new one.")
                try checkText(tidied, field("id"))
                // An id is written on one line (TSV, reports, a card's UID
                // written back), so an imported one holds no control
                // character either.
                try ContactValidator.checkControlCharacters(tidied, field("id"), allowingNewlines: false)
                result.id = tidied
            }
            result.firstName = try name(draft.firstName, field("firstName"))
            result.lastName = try name(draft.lastName, field("lastName"))
            result.company = try name(draft.company, field("company"))
            // Tidied in place: reading `draft.details` through a key path
            // copies the whole details for each text.
            for text in Self.detailNames { try tidyName(&result.details[keyPath: text.field], field(text.key)) }
            let hasName = result.firstName != nil || result.lastName != nil || result.company != nil
            if isTyped {
                try require(hasName, field("firstName"), "a contact needs at least one of first name, last name or company.")
            }
            if let age = draft.age {
                try require((0...999).contains(age), field("age"), "\(age) is out of range; an age is a whole number from 0 to 999.")
            }
            for (list, count) in [("phones", draft.phones.count), ("emails", draft.emails.count),
                                  ("addresses", draft.addresses.count), ("messengers", draft.messengers.count),
                                  ("dates", draft.dates.count), ("urls", draft.urls.count),
                                  ("relations", draft.relations.count), ("socialProfiles", draft.socialProfiles.count)] {
                try require(count <= maxChildren, field(list), "\(count) entries is too many; a contact holds at most \(maxChildren).")
            }
            result.phones = try draft.phones.enumerated().map { index, phone in
                try validated(phone, at: field("phones[\(index)]"), counting: &unusual)
            }
            result.emails = try draft.emails.enumerated().map { index, email in
                try validated(email, at: field("emails[\(index)]"), counting: &unusual)
            }
            result.addresses = try draft.addresses.enumerated().map { index, address in
                try validated(address, at: field("addresses[\(index)]"))
            }
            result.messengers = try draft.messengers.enumerated().map { index, messenger in
                try validated(messenger, at: field("messengers[\(index)]"), counting: &unusual)
            }
            // An imported messenger without a handle reaches no one and
            // cannot be stored; it goes, and is counted.
            unusual.emptyMessengers += result.messengers.count { $0.handle.isEmpty }
            result.messengers.removeAll { $0.handle.isEmpty }
            try validateDetails(draft.details, into: &result.details)
            result.photo = try photo(draft.photo)
            var groupKeys: Set<String> = []
            // A set of names, kept in name order as the engine returns them.
            result.groups = try draft.groups.enumerated().compactMap { index, name in
                let name = try groupName(name, at: field("groups[\(index)]"))
                return groupKeys.insert(Text.groupKey(name)).inserted ? name : nil
            }.sorted(by: Collation.precedes)
            if !isTyped && !hasName {
                // Only a record that holds nothing is refused; a messenger
                // without a handle, left out above, was something.
                var rest = result
                rest.id = nil
                try require(rest != ContactDraft() || !draft.messengers.isEmpty, path.isEmpty ? "contact" : path,
                    "the record holds nothing but an id; give it a name, a phone, an email or any other field.")
                unusual.unnamedContacts += 1
            }
            return result
        }

        /// The optional names of the whole card, tidied like the three names.
        static let detailNames = DetailText.with(.name)

        /// A typed photo must decode (``PhotoImage`` says why not); an
        /// imported one is kept as given, its type found by content where
        /// it can be. Either way the type is the content's, not the label's.
        private func photo(_ photo: ContactPhoto?) throws -> ContactPhoto? {
            guard var photo else { return nil }
            if isTyped {
                photo.mediaType = try PhotoImage(photo.data).mediaType
            } else if let found = PhotoImage.mediaType(of: photo.data) {
                photo.mediaType = found
            }
            return photo
        }

        // MARK: - The whole card

        private func validateDetails(_ details: ContactDetails, into result: inout ContactDetails) throws {
            if let birthday = details.birthday {
                result.birthday = try date(birthday, field("birthday"))
            }
            result.dates = try details.dates.enumerated().map { index, entry in
                let path = field("dates[\(index)]")
                return LabeledValue(type: try label(entry.type, default: "anniversary", at: "\(path).type"),
                                    value: try date(entry.value, "\(path).value"),
                                    parameters: try parameters(entry.parameters, "\(path).parameters"))
            }
            if let note = details.note {
                let tidied = Text.trimmed(note.replacingOccurrences(of: "\r\n", with: "\n"))
                try require(tidied.utf8.count <= maxLongTextBytes, field("note"),
                    "the note is \(tidied.utf8.count) bytes long; a note holds at most 64 KiB.")
                try checkControls(tidied, field("note"), allowingNewlines: true)
                result.note = tidied.isEmpty ? nil : tidied
            }
            result.urls = try details.urls.enumerated().map { index, entry in
                let path = field("urls[\(index)]")
                let value = Text.trimmed(entry.value)
                try require(!value.isEmpty, "\(path).value", "a URL cannot be empty.")
                try checkText(value, "\(path).value")
                return LabeledValue(type: try label(entry.type, default: "other", at: "\(path).type"), value: value,
                                    parameters: try parameters(entry.parameters, "\(path).parameters"))
            }
            result.relations = try details.relations.enumerated().map { index, entry in
                let path = field("relations[\(index)]")
                let name = Text.tidy(entry.name)
                try require(!name.isEmpty, "\(path).name", "a relation needs the related person's name.")
                try checkText(name, "\(path).name")
                return Relation(type: try label(entry.type, default: "other", at: "\(path).type"), name: name)
            }
            result.socialProfiles = try details.socialProfiles.enumerated().map { index, entry in
                let path = field("socialProfiles[\(index)]")
                let profile = SocialProfile(
                    service: Text.tidy(entry.service), handle: Text.trimmed(entry.handle), url: Text.trimmed(entry.url))
                try require(!profile.service.isEmpty, "\(path).service", "a social profile needs its service.")
                try require(!profile.handle.isEmpty || !profile.url.isEmpty, "\(path).handle",
                    "a social profile needs a handle or a URL.")
                for (name, value) in [("service", profile.service), ("handle", profile.handle), ("url", profile.url)] {
                    try checkText(value, "\(path).\(name)")
                }
                return profile
            }
            try require(details.extra.count <= maxChildren * 10, field("extra"),
                "\(details.extra.count) entries is too many; a contact holds at most \(maxChildren * 10) extra properties.")
            for (index, line) in details.extra.enumerated() {
                let path = field("extra[\(index)]")
                try require(line.utf8.count <= maxExtraLineBytes, path, "the line is longer than 16 MiB.")
                try require(Self.isContentLine(line, strictName: isTyped), path,
                    "\(quoted(line)) is not a vCard content line; write NAME:value or NAME;PARAM=x:value.")
                try checkControls(line, path, allowingNewlines: false)
            }
        }

        /// `YYYY-MM-DD` or `--MM-DD`, a day the calendar has (29 February
        /// without a year).
        private func date(_ text: String, _ field: @autoclosure () -> String) throws -> String {
            let value = Text.trimmed(text)
            try require(PartialDate(value) != nil, field(),
                "\(quoted(value)) is not a date; write YYYY-MM-DD, or --MM-DD when the year is unknown.")
            return value
        }

        /// `[group.]NAME[;params]:value`, on one line. A typed name is
        /// letters, digits and dashes as RFC 6350 has them; an imported one
        /// may be any name its producer wrote (KAddressBook writes
        /// `X-MESSAGING/xmpp-All`), so that it is kept.
        private static func isContentLine(_ line: String, strictName: Bool) -> Bool {
            guard let colon = line.firstIndex(of: ":") else { return false }
            let name = line[..<colon].split(separator: ";", maxSplits: 1).first ?? ""
            return !name.isEmpty && name.allSatisfy { character in
                strictName ? character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == ".")
                    : !character.isWhitespace && !character.unicodeScalars.contains { $0.properties.generalCategory == .control }
            }
        }

        // MARK: - Children

        private func validated(_ phone: Phone, at path: @autoclosure () -> String, counting unusual: inout UnusualValues) throws -> Phone {
            let value = Text.tidy(phone.value)
            try checkText(value, "\(path()).value")
            let type = try label(phone.type, default: WellKnownLabel.mobile.rawValue, at: "\(path()).type")
            do {
                try Self.checkPhoneDigits(value, "\(path()).value")
            } catch where !isTyped {
                try require(!value.isEmpty, "\(path()).value", "a phone number cannot be empty.")
                unusual.phones += 1
            }
            return Phone(type: type, value: value, preferred: phone.preferred,
                         parameters: try parameters(phone.parameters, "\(path()).parameters"))
        }

        /// The typed rule: 9 to 15 digits, an optional leading "+", and only
        /// spaces, dashes, dots and parentheses besides.
        private static func checkPhoneDigits(_ value: String, _ field: @autoclosure () -> String) throws {
            func isAllowed(_ byte: UInt8, at offset: Int) -> Bool {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || " -.()".utf8.contains(byte)
                    || (byte == UInt8(ascii: "+") && offset == 0)
            }
            if let (_, scalar) = value.unicodeScalars.enumerated()
                .first(where: { !$1.isASCII || !isAllowed(UInt8($1.value), at: $0) }) {
                throw ContactsDBError.invalidContact(field: field(), reason:
                    "\(quoted(value)) contains \(quoted(String(scalar))); a phone holds digits, an optional leading \"+\", and only spaces, dashes, dots and parentheses besides.")
            }
            let digitCount = value.utf8.count { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            try require((9...15).contains(digitCount), field(),
                "\(quoted(value)) has \(digitCount) digits; a phone needs 9 to 15.")
        }

        private func validated(_ email: Email, at path: @autoclosure () -> String, counting unusual: inout UnusualValues) throws -> Email {
            let value = Text.trimmed(email.value)
            try checkText(value, "\(path()).value")
            if !isEmailAddress(value) {
                try require(!isTyped && !value.isEmpty, "\(path()).value",
                    "\(quoted(value)) is not an email address; it needs one \"@\" between a non-empty local part and a dotted domain, and no spaces.")
                unusual.emails += 1
            }
            return Email(type: try label(email.type, default: WellKnownLabel.home.rawValue, at: "\(path()).type"),
                         value: value, preferred: email.preferred,
                         parameters: try parameters(email.parameters, "\(path()).parameters"))
        }

        private func validated(_ address: Address, at path: @autoclosure () -> String) throws -> Address {
            var result = address
            // A street may take several lines (Apple writes "10 rue de
            // Rivoli\nAppt 4"); each is tidied on its own. Fields are named
            // one by one: through a list of key paths, with every street
            // split into graphemes, an address's check cost three and a half
            // times as much.
            func street(_ text: String, _ name: String) throws -> String {
                // Without a byte that may begin a line break, one line.
                guard text.utf8.contains(where: { (0x0A...0x0D).contains($0) || $0 == 0xC2 || $0 == 0xE2 }) else {
                    return try line(text, name)
                }
                let lines = text.split(whereSeparator: \.isNewline).map { Text.tidy(String($0)) }.filter { !$0.isEmpty }
                for line in lines { try checkText(line, "\(path()).\(name)") }
                return lines.joined(separator: "\n")
            }
            func line(_ text: String, _ name: String) throws -> String {
                let tidied = Text.tidy(text)
                try checkText(tidied, "\(path()).\(name)")
                return tidied
            }
            result.street1 = try street(address.street1, "street1")
            result.street2 = try street(address.street2, "street2")
            result.city = try line(address.city, "city")
            result.state = try line(address.state, "state")
            result.zipcode = try line(address.zipcode, "zipcode")
            result.country = try line(address.country, "country")
            result.poBox = try line(address.poBox, "poBox")
            let isEmpty = [result.street1, result.street2, result.city, result.state, result.zipcode, result.country,
                           result.poBox].allSatisfy(\.isEmpty)
            try require(!isEmpty, path(), "an address needs at least one of street1, street2, city, state, zipcode, country or poBox.")
            result.type = try label(address.type, default: WellKnownLabel.home.rawValue, at: "\(path()).type")
            result.parameters = try parameters(address.parameters, "\(path()).parameters")
            return result
        }

        private func validated(_ messenger: Messenger, at path: @autoclosure () -> String, counting unusual: inout UnusualValues) throws -> Messenger {
            let given = Text.tidy(messenger.service)
            let service = MessengerService(rawValue: given.lowercased())?.rawValue
            if service == nil {
                try require(!isTyped && !given.isEmpty, "\(path()).service",
                    "\(quoted(messenger.service)) is not a messenger service; use one of \(MessengerService.allCases.map(\.rawValue).joined(separator: ", ")).")
                try checkText(given, "\(path()).service")
                unusual.messengers += 1
            }
            let handle = Text.tidy(messenger.handle)
            try require(!handle.isEmpty || !isTyped, "\(path()).handle", "a \(service ?? given) handle cannot be empty.")
            try checkText(handle, "\(path()).handle")
            return Messenger(service: service ?? given, handle: handle,
                             parameters: try parameters(messenger.parameters, "\(path()).parameters"))
        }

        /// vCard parameters as they go between `;` and `:` on a content
        /// line: `NAME=value` or 2.1's bare `VALUE`, `;`-separated, with no
        /// `:` or `;` outside double quotes. Nil when empty.
        private func parameters(_ text: String?, _ field: @autoclosure () -> String) throws -> String? {
            guard let text = text.map({ Text.trimmed($0) }), !text.isEmpty else { return nil }
            try checkText(text, field())
            var quoted = false, stray = false, pieces: [Substring] = [], start = text.startIndex
            for index in text.indices {
                switch text[index] {
                case "\"": quoted.toggle()
                case ";" where !quoted:
                    pieces.append(text[start..<index])
                    start = text.index(after: index)
                case ":" where !quoted: stray = true
                default: break
                }
            }
            pieces.append(text[start...])
            let isWellFormed = !quoted && !stray && pieces.allSatisfy { piece in
                let name = piece.prefix { $0 != "=" }
                return !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
            try require(isWellFormed, field(),
                "\(ContactValidator.quoted(text)) is not a list of vCard parameters; write NAME=value;NAME=value, quoting values that hold \":\" or \";\".")
            return text
        }

        private func name(_ name: String?, _ field: @autoclosure () -> String) throws -> String? {
            let tidied = Text.tidyOrNil(name)
            if let tidied { try checkText(tidied, field()) }
            return tidied
        }

        private func tidyName(_ name: inout String?, _ field: @autoclosure () -> String) throws {
            guard name != nil else { return }
            name = try self.name(name, field())
        }

        /// A well-known label in its canonical spelling, a custom one as given,
        /// or `fallback` when empty.
        private func label(_ label: String, default fallback: String, at field: @autoclosure () -> String) throws -> String {
            let tidied = Text.tidy(label)
            try checkText(tidied, field())
            if tidied.isEmpty { return fallback }
            return WellKnownLabel(rawValue: tidied.lowercased())?.rawValue ?? tidied
        }

        /// The limits every text field shares: its length (typed text is
        /// shorter), and no control characters (tabs and newlines are tidied
        /// into spaces before this).
        private func checkText(_ text: String, _ field: @autoclosure () -> String) throws {
            if isTyped {
                try ContactValidator.checkText(text, field())
            } else {
                try require(text.utf8.count <= maxLongTextBytes, field(),
                    "the value is \(text.utf8.count) bytes long; the limit is 64 KiB.")
                try checkControls(text, field(), allowingNewlines: false)
            }
        }

        /// Typed text holds no control characters; another address book's
        /// (Outlook's U+000C, Thunderbird's tab) are kept, as output escapes
        /// them where it shows them. NUL alone is refused either way: C
        /// strings end there.
        private func checkControls(_ text: String, _ field: @autoclosure () -> String, allowingNewlines: Bool) throws {
            if isTyped {
                try checkControlCharacters(text, field(), allowingNewlines: allowingNewlines)
            } else {
                try require(!text.utf8.contains(0), field(), "contains the character U+0000, which cannot be stored.")
            }
        }
    }

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

    // MARK: - Non public

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
    private static func checkControlCharacters(_ text: String, _ field: @autoclosure () -> String, allowingNewlines: Bool) throws {
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

/// What an import kept that typed input would refuse (SPEC §Validation:
/// imported data), counted so that the import can say so in one line.
public struct UnusualValues: Hashable, Sendable {
    /// Phones typed input would refuse (short codes, extensions, …).
    public var phones = 0
    /// Emails typed input would refuse (a dotless domain, …).
    public var emails = 0
    /// Messengers of services beyond the five the filters know.
    public var messengers = 0
    /// Contacts with no first name, last name or company.
    public var unnamedContacts = 0
    /// Photos that cannot be decoded, kept as given without a thumbnail.
    public var undecodablePhotos = 0
    /// Messengers without a handle, which reach no one: not stored.
    public var emptyMessengers = 0

    /// Nothing counted yet.
    public init() {}

    /// Whether nothing was counted.
    public var isEmpty: Bool { self == UnusualValues() }

    /// True when only ``emptyMessengers`` were counted, which were left
    /// out rather than kept.
    public var keptNothingUnusual: Bool { var kept = self; kept.emptyMessengers = 0; return kept.isEmpty }

    mutating func add(_ other: UnusualValues) {
        phones += other.phones
        emails += other.emails
        messengers += other.messengers
        unnamedContacts += other.unnamedContacts
        undecodablePhotos += other.undecodablePhotos
        emptyMessengers += other.emptyMessengers
    }

    /// "4 phone numbers, 1 email address and 2 contacts without a name":
    /// what was kept (``emptyMessengers`` were not).
    public var summary: String {
        let parts = [(phones, "phone number", "phone numbers"), (emails, "email address", "email addresses"),
                     (messengers, "messenger of another service", "messengers of other services"),
                     (unnamedContacts, "contact without a first name, last name or company",
                      "contacts without a first name, last name or company"),
                     (undecodablePhotos, "undecodable photo (no thumbnail)", "undecodable photos (no thumbnails)")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }
        guard let last = parts.last else { return "" }
        return parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + " and " + last
    }
}
