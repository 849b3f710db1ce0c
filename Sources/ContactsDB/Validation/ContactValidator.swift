import Foundation

/// Validation (docs/cli.md, "Editing"): checks a draft and returns it
/// tidied (names trimmed and collapsed, labels canonical, services
/// lower-case), or throws ``ContactsDBError/invalidContact(field:reason:)``
/// naming the first field that breaks a rule.
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
    /// Most phones, emails, addresses or messengers one contact may hold;
    /// each of the card's other lists declares its own (``CardList``).
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
            result.id = try id(draft.id)
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
            try checkCounts(draft)
            try validateChildren(draft, into: &result, counting: &unusual)
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
                // without a handle, left out before, was something.
                var rest = result
                rest.id = nil
                try require(rest != ContactDraft() || !draft.messengers.isEmpty, path.isEmpty ? "contact" : path,
                    "the record holds nothing but an id; give it a name, a phone, an email or any other field.")
                unusual.unnamedContacts += 1
            }
            return result
        }

        private func id(_ id: String?) throws -> String? {
            guard let id else { return nil }
            let tidied = Text.trimmed(id, in: .whitespaces)
            try require(!tidied.isEmpty, field("id"), "an id cannot be empty; leave it out to get a new one.")
            try checkText(tidied, field("id"))
            // An id is written on one line (TSV, reports, a card's UID
            // written back), so an imported one holds no control character
            // either.
            try ContactValidator.checkControlCharacters(tidied, field("id"), allowingNewlines: false)
            return tidied
        }

        /// No list longer than its limit.
        private func checkCounts(_ draft: ContactDraft) throws {
            func check(_ list: String, _ count: Int, limit: Int = maxChildren, noun: String? = nil) throws {
                try require(count <= limit, field(list),
                    "\(count) entries is too many; a contact holds at most \(limit)\(noun.map { " " + $0 } ?? "").")
            }
            try check("phones", draft.phones.count)
            try check("emails", draft.emails.count)
            try check("addresses", draft.addresses.count)
            try check("messengers", draft.messengers.count)
            guard draft.details.hasLists else { return }
            for list in CardList.all {
                try check(list.key, list.count(in: draft.details), limit: list.limit, noun: list.limitNoun)
            }
        }

        private func validateChildren(_ draft: ContactDraft, into result: inout ContactDraft, counting unusual: inout UnusualValues) throws {
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
            } else {
                try ContactValidator.checkControlCharacters(photo.mediaType, field("photo.mediaType"), allowingNewlines: false)
            }
            return photo
        }

        /// Whatever its origin, a text written into a vCard line as it is
        /// (not escaped) holds no line break, which would end the line.
        private func requireOneLine(_ text: String, _ field: @autoclosure () -> String, _ why: String) throws {
            try require(!text.utf8.contains { $0 == 0x0A || $0 == 0x0D }, field(), "\(quoted(text)) holds a line break; \(why).")
        }

        // MARK: - The whole card

        private func validateDetails(_ details: ContactDetails, into result: inout ContactDetails) throws {
            if let birthday = details.birthday {
                result.birthday = try date(birthday, field("birthday"))
            }
            if let note = details.note {
                let tidied = Text.trimmed(note.replacingOccurrences(of: "\r\n", with: "\n"))
                try require(tidied.utf8.count <= maxLongTextBytes, field("note"),
                    "the note is \(tidied.utf8.count) bytes long; a note holds at most 64 KiB.")
                try checkControls(tidied, field("note"), allowingNewlines: true)
                result.note = tidied.isEmpty ? nil : tidied
            }
            guard details.hasLists else { return }
            for list in CardList.all {
                let rows = try list.rows(of: details).enumerated().map { index, texts in
                    try validated(texts, of: list, at: field("\(list.key)[\(index)]"))
                }
                list.set(rows, in: &result)
            }
        }

        /// An entry of a card's list, each column checked and tidied by its
        /// rule; the path of a plain text's entry is the entry's own.
        private func validated(_ texts: [String?], of list: CardList, at path: String) throws -> [String?] {
            var result = texts
            for (index, column) in list.columns.enumerated() {
                let field = list.plainText == nil ? "\(path).\(column.name)" : path
                let text = texts[index] ?? ""
                switch column.rule {
                case .label(let fallback):
                    result[index] = try label(text, default: fallback, at: field)
                case .date:
                    result[index] = try date(text, field)
                case .parameters:
                    result[index] = try parameters(texts[index], field)
                case .tidied(let required), .trimmed(let required):
                    let tidied = column.rule == .tidied(required: required) ? Text.tidy(text) : Text.trimmed(text)
                    if let required { try require(!tidied.isEmpty, field, required) }
                    try checkText(tidied, field)
                    result[index] = tidied
                case .contentLine:
                    try require(text.utf8.count <= maxExtraLineBytes, field, "the line is longer than 16 MiB.")
                    try requireOneLine(text, field, "an extra property is one vCard content line")
                    try require(Self.isContentLine(text, strictName: isTyped), field,
                        "\(quoted(text)) is not a vCard content line; write NAME:value or NAME;PARAM=x:value.")
                    try checkControls(text, field, allowingNewlines: false)
                }
            }
            if let oneOf = list.needsOneOf {
                let given = list.columns.indices.contains { oneOf.columns.contains(list.columns[$0].name) && result[$0]?.isEmpty == false }
                try require(given, "\(path).\(oneOf.columns[0])", oneOf.reason)
            }
            return result
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
            try requireOneLine(text, field(), "vCard parameters are written on their property's line")
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
}
