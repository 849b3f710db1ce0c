import Foundation

/// Reads vCard 2.1, 3.0 (RFC 2426) and 4.0 (RFC 6350) text into drafts:
/// unfolds lines, unescapes values, decodes quoted-printable and CHARSET
/// parameters, and maps N, FN, ORG, TEL, EMAIL, ADR, IMPP, UID and
/// CATEGORIES (plus this engine's X-CONTACTSDB-AGE and -FAVORITE, so its own
/// exports round-trip). Everything else is counted, not silently dropped.
struct VCardReader {
    /// One card as read, or why it could not be.
    struct Card {
        /// Where the card is, as errors name it: `cards.vcf card 2 (line 9)`.
        var path: String
        var result: Result<ContactDraft, ContactsDBError>
    }

    /// Property names the model does not hold, with how often they appeared.
    private(set) var unheldProperties: [String: Int] = [:]
    /// IMPP schemes that are not one of the five services, with counts.
    private(set) var unknownMessengers: [String: Int] = [:]
    /// Cards read so far, across files: a card's number is one more.
    private(set) var cardCount = 0

    /// True when `bytes` look like vCard text rather than JSON.
    static func isVCard(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let head = String(decoding: bytes.prefix(64), as: UTF8.self)
            .trimmingCharacters(in: CharacterSet(charactersIn: "\u{FEFF}").union(.whitespacesAndNewlines))
        return head.uppercased().hasPrefix("BEGIN:VCARD")
    }

    /// Reads the cards of one file in order, one at a time, calling `body`
    /// with each card and the offset of the byte after it. Only one card's
    /// text is held at a time, so a file of any size reads in bounded memory.
    /// A card nested in another (vCard 2.1's AGENT) stays inside it.
    mutating func forEachCard(
        in bytes: UnsafeBufferPointer<UInt8>, source: String, _ body: (Card, Int) throws -> Void
    ) rethrows {
        var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var lineNumber = 0, depth = 0
        var card = (start: 0, line: 0)
        // Whether the last line opened an AGENT property, inside which a
        // BEGIN starts a nested card; any other BEGIN inside a card means
        // that card lost its END, and a new one starts there.
        var isAfterAgent = false
        while lineStart < bytes.count {
            // Lines end in LF, CR LF, or (old Mac exports) CR alone.
            let lineEnd = bytes[lineStart...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? bytes.count
            let isCRLF = lineEnd + 1 < bytes.count && bytes[lineEnd] == 0x0D && bytes[lineEnd + 1] == 0x0A
            let next = min(lineEnd + (isCRLF ? 2 : 1), bytes.count)
            lineNumber += 1
            let line = bytes[lineStart..<lineEnd]
            // Inside a card, a line that starts with white space continues
            // the one before (RFC folding), whatever it says.
            let isContinuation = depth > 0 && (line.first == 0x20 || line.first == 0x09)
            switch isContinuation ? nil : Self.marker(line) {
            case .begin?:
                if depth > 0 && !isAfterAgent {
                    try body(unterminated(source, line: card.line), lineStart)
                    depth = 0
                }
                if depth == 0 { card = (lineStart, lineNumber) }
                depth += 1
            case .end? where depth > 0:
                depth -= 1
                if depth == 0 {
                    try body(readCard(UnsafeBufferPointer(rebasing: bytes[card.start..<next]),
                                      source: source, line: card.line), next)
                }
            default:
                break
            }
            if !isContinuation { isAfterAgent = Self.opensAgent(line) }
            lineStart = next
        }
        if depth > 0 {
            try body(unterminated(source, line: card.line), bytes.count)
        }
    }

    /// The failure of a card whose END:VCARD never came.
    private mutating func unterminated(_ source: String, line: Int) -> Card {
        cardCount += 1
        let path = Self.path(source, cardCount, line)
        return Card(path: path, result: .failure(.invalidContact(field: path, reason: "the card has no END:VCARD.")))
    }

    /// Whether a line is an AGENT property (`AGENT:`, `item1.AGENT;…`).
    private static func opensAgent(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let head = String(decoding: line.prefix(64), as: UTF8.self).uppercased()
        let name = head.split(whereSeparator: { $0 == ":" || $0 == ";" }).first.map { $0.split(separator: ".").last ?? $0 }
        return name == "AGENT"
    }

    /// The cards of one file, read whole.
    mutating func cards(in data: Data, source: String) -> [Card] {
        var cards: [Card] = []
        data.withUnsafeBytes { raw in forEachCard(in: raw.bindMemory(to: UInt8.self), source: source) { card, _ in cards.append(card) } }
        return cards
    }

    private enum Marker { case begin, end }

    /// Whether a line is `BEGIN:VCARD` or `END:VCARD`, in any case, with
    /// surrounding white space.
    private static func marker(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Marker? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        guard let first = line.firstIndex(where: { !isSpace($0) }),
              let last = line.lastIndex(where: { !isSpace($0) }), last - first < 12 else { return nil }
        switch String(decoding: line[first...last], as: UTF8.self).uppercased() {
        case "BEGIN:VCARD": return .begin
        case "END:VCARD": return .end
        default: return nil
        }
    }

    private static func path(_ source: String, _ number: Int, _ line: Int) -> String {
        "\(source) card \(number) (line \(line))"
    }

    /// One card's text, from its BEGIN line through its END line.
    private mutating func readCard(_ bytes: UnsafeBufferPointer<UInt8>, source: String, line: Int) -> Card {
        cardCount += 1
        let path = Self.path(source, cardCount, line)
        var properties: [Property] = []
        var depth = 0
        for (_, property) in Self.contentLines(Self.decode(Data(bytes))) {
            let isMarker = property.rawValue.uppercased() == "VCARD"
            if property.name == "BEGIN" && isMarker {
                depth += 1
                if depth == 2 { unheldProperties["AGENT (a nested card)", default: 0] += 1 }
            } else if property.name == "END" && isMarker {
                depth -= 1
            } else if depth == 1 {
                properties.append(property)
            }
        }
        return Card(path: path, result: Result { try draft(from: properties) }
            .mapError { $0 as? ContactsDBError ?? .invalidContact(field: path, reason: "\($0)") })
    }

    // MARK: - Content lines

    struct Property {
        var group: String?
        var name: String
        var parameters: [(name: String, values: [String])]
        var rawValue: String

        func parameter(_ name: String) -> [String] {
            parameters.filter { $0.name == name }.flatMap(\.values)
        }

        /// TYPE values, including vCard 2.1's bare ones (`TEL;WORK;VOICE:`).
        var types: [String] {
            parameters.filter { $0.name == "TYPE" || $0.values.isEmpty }
                .flatMap { $0.values.isEmpty ? [$0.name] : $0.values }
                .flatMap { $0.split(separator: ",").map { $0.lowercased() } }
        }

        /// The value with quoted-printable and CHARSET decoded.
        var decodedValue: String {
            let isQuotedPrintable = parameter("ENCODING").contains { $0.uppercased() == "QUOTED-PRINTABLE" }
                || parameters.contains { $0.name == "QUOTED-PRINTABLE" }
            guard isQuotedPrintable else { return rawValue }
            let bytes = VCardReader.quotedPrintableBytes(rawValue)
            let charset = parameter("CHARSET").first?.lowercased() ?? "utf-8"
            return VCardReader.string(bytes, charset: charset)
        }
    }

    /// Decodes the file: UTF-8 (with or without BOM), else Windows-1252.
    static func decode(_ data: Data) -> String {
        if let text = String(data: data, encoding: .utf8) { return text.replacingOccurrences(of: "\u{FEFF}", with: "") }
        return String(data: data, encoding: .windowsCP1252) ?? String(decoding: data, as: UTF8.self)
    }

    /// Unfolded content lines with their first line number (1-based).
    ///
    /// Each physical line is appended once to the logical line it continues,
    /// so a card of any number of folds or soft line breaks is read in time
    /// linear in its size.
    static func contentLines(_ text: String) -> [(Int, Property)] {
        var result: [(Int, Property)] = []
        var current: LogicalLine?
        var lineNumber = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            if let first = rawLine.first, first == " " || first == "\t", current != nil {
                current?.append(rawLine.dropFirst())  // RFC folding
            } else if current?.endsInSoftLineBreak == true {
                current?.dropSoftLineBreak()  // a 2.1 quoted-printable soft line break
                current?.append(rawLine)
            } else if !rawLine.isEmpty {
                if let line = current, let property = parse(line.text) { result.append((line.number, property)) }
                current = LogicalLine(number: lineNumber, first: rawLine)
            }
        }
        if let line = current, let property = parse(line.text) { result.append((line.number, property)) }
        return result
    }

    /// A content line being unfolded. Whether its value is quoted-printable
    /// is decided from its name and parameters, read as they arrive, so that
    /// no fold rescans what came before.
    private struct LogicalLine {
        let number: Int
        private(set) var text = ""
        private var headEnded = false
        private var inQuotes = false
        /// The name and parameters so far, upper-cased, until the value starts.
        private var head = ""
        private var isQuotedPrintable = false

        init(number: Int, first: Substring) {
            self.number = number
            append(first)
        }

        var endsInSoftLineBreak: Bool {
            isQuotedPrintable && text.last == "="
        }

        mutating func dropSoftLineBreak() { text.removeLast() }

        mutating func append(_ piece: Substring) {
            text += piece
            guard !headEnded else { return }
            for character in piece {
                if character == "\"" {
                    inQuotes.toggle()
                } else if character == ":" && !inQuotes {
                    headEnded = true
                    isQuotedPrintable = head.contains("QUOTED-PRINTABLE")
                    head = ""
                    return
                }
                head += character.uppercased()
            }
        }
    }

    /// `group.NAME;PARAM=a,b;PARAM="c":value`. An empty parameter (`TEL;:1`,
    /// `TEL;;TYPE=home:1`) is dropped; one with an empty name (`TEL;=x:1`)
    /// is kept as a bare value, as vCard 2.1 writes types.
    static func parse(_ line: String) -> Property? {
        var index = line.startIndex
        var head: [String] = []
        var current = ""
        var inQuotes = false
        while index < line.endIndex {
            let character = line[index]
            if character == "\"" {
                inQuotes.toggle()
            } else if !inQuotes && (character == ";" || character == ":") {
                head.append(current)
                current = ""
                if character == ":" { break }
            } else {
                current.append(character)
            }
            index = line.index(after: index)
        }
        guard index < line.endIndex, let nameWithGroup = head.first else { return nil }
        let nameParts = nameWithGroup.split(separator: ".", maxSplits: 1).map(String.init)
        let parameters = head.dropFirst().compactMap { parameter -> (String, [String])? in
            guard let equals = parameter.firstIndex(of: "=") else {
                return parameter.isEmpty ? nil : (parameter.uppercased(), [])
            }
            let name = parameter[..<equals].uppercased()
            let value = String(parameter[parameter.index(after: equals)...])
            if name.isEmpty { return value.isEmpty ? nil : (value.uppercased(), []) }
            return (name, [value])
        }
        return Property(
            group: nameParts.count > 1 ? nameParts[0].lowercased() : nil,
            name: (nameParts.last ?? "").uppercased(), parameters: parameters,
            rawValue: String(line[line.index(after: index)...]))
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
        parts.append(current)
        return parts
    }

    static func text(_ value: String) -> String { components(value, separator: nil)[0] }

    static func quotedPrintableBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
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

    static func string(_ bytes: [UInt8], charset: String) -> String {
        let encodings: [String: String.Encoding] = [
            "utf-8": .utf8, "iso-8859-1": .isoLatin1, "latin1": .isoLatin1, "windows-1252": .windowsCP1252,
            "windows-1251": .windowsCP1251, "us-ascii": .ascii,
        ]
        return String(data: Data(bytes), encoding: encodings[charset] ?? .utf8) ?? String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Cards

    private mutating func draft(from properties: [Property]) throws -> ContactDraft {
        var draft = ContactDraft()
        var formattedName: String?
        // Apple-style custom labels: `item1.TEL:…` with `item1.X-ABLabel:Cottage`.
        var labels: [String: String] = [:]
        for property in properties where property.name == "X-ABLABEL" {
            if let group = property.group { labels[group] = Self.text(property.decodedValue).trimmingCharacters(in: CharacterSet(charactersIn: "_$!<>")) }
        }
        for property in properties {
            let value = property.decodedValue
            let label = property.group.flatMap { labels[$0] }
            switch property.name {
            case "VERSION", "PRODID", "X-ABLABEL", "REV", "KIND":
                continue
            case "N":
                let parts = Self.components(value)
                draft.lastName = parts.first.flatMap { $0.isEmpty ? nil : $0 }
                let given = parts.dropFirst().prefix(2).filter { !$0.isEmpty }.joined(separator: " ")
                draft.firstName = given.isEmpty ? nil : given
            case "FN":
                formattedName = Self.text(value)
            case "ORG":
                draft.company = Self.components(value).first.flatMap { $0.isEmpty ? nil : $0 }
            case "UID":
                let uid = Self.text(value)
                draft.id = uid.hasPrefix("urn:uuid:") ? String(uid.dropFirst("urn:uuid:".count)) : uid
            case "TEL":
                let number = value.lowercased().hasPrefix("tel:") ? String(value.dropFirst(4)) : Self.text(value)
                draft.phones.append(Phone(type: label ?? Self.label(property.types, phone: true), value: number))
            case "EMAIL":
                draft.emails.append(Email(type: label ?? Self.label(property.types, phone: false), value: Self.text(value)))
            case "ADR":
                let parts = Self.components(value) + Array(repeating: "", count: 7)
                draft.addresses.append(Address(
                    type: label ?? Self.label(property.types, phone: false), street1: parts[2], street2: parts[1],
                    city: parts[3], state: parts[4], zipcode: parts[5], country: parts[6]))
            case "IMPP":
                let uri = Self.text(value)
                let scheme = uri.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
                let service = property.parameter("X-SERVICE-TYPE").first?.lowercased() ?? scheme
                if MessengerService(rawValue: service) != nil {
                    let handle = uri.lowercased().hasPrefix(scheme + ":") ? String(uri.dropFirst(scheme.count + 1)) : uri
                    draft.messengers.append(Messenger(service: service, handle: handle))
                } else {
                    unknownMessengers[service.isEmpty ? "(no scheme)" : service, default: 0] += 1
                }
            case "CATEGORIES":
                draft.groups += Self.components(value, separator: ",").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            case "X-CONTACTSDB-AGE":
                draft.age = Int(value.trimmingCharacters(in: .whitespaces))
            case "X-CONTACTSDB-FAVORITE":
                draft.isFavorite = value.trimmingCharacters(in: .whitespaces).uppercased() == "TRUE"
            default:
                unheldProperties[property.name, default: 0] += 1
            }
        }
        if draft.firstName == nil, draft.lastName == nil, draft.company == nil, let formattedName, !formattedName.isEmpty {
            draft.firstName = formattedName
        }
        return draft
    }

    /// The model's label for vCard TYPE values: cell → mobile, and so on.
    static func label(_ types: [String], phone: Bool) -> String {
        for type in types {
            switch type {
            case "cell", "mobile", "iphone": return "mobile"
            case "home": return "home"
            case "work": return "work"
            case "main", "main-number": return "main"
            case "other": return "other"
            default: continue
            }
        }
        return phone ? "other" : "home"
    }
}
