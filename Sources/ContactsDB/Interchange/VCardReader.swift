import Foundation

/// Reads vCard 2.1, 3.0 (RFC 2426) and 4.0 (RFC 6350) files card by card
/// into drafts (``VCardContentLine`` reads each line, ``VCardPropertyMapper``
/// maps a card's lines to the model). Nothing is dropped: a property the
/// model does not hold is kept verbatim in `extra`, and counted.
package struct VCardReader {
    /// One card as read, or why it could not be.
    package struct Card {
        /// Where the card is, as errors name it: `cards.vcf card 2 (line 9)`.
        package var path: String
        /// Its place among the file's cards in the order they begin (a
        /// card around nested ones comes after them but is numbered first).
        var number: Int
        package var result: Result<ContactDraft, ContactsDBError>
    }

    package init() {}

    /// Property names the model does not hold, kept verbatim as extra
    /// properties, with how often they appeared.
    private(set) var extraProperties: [String: Int] = [:]
    /// The charset of 8-bit text that names none and is not UTF-8: the last
    /// non-UTF-8 CHARSET this file named, else Windows-1252.
    private var legacyCharset: String.Encoding = .windowsCP1252
    /// Cards read so far, across files: a card's number is one more.
    private(set) var cardCount = 0

    /// True when `bytes` look like vCard text rather than JSON.
    package static func isVCard(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let head = String(decoding: bytes.prefix(64), as: UTF8.self)
            .trimmingCharacters(in: CharacterSet(charactersIn: "\u{FEFF}").union(.whitespacesAndNewlines))
        return head.uppercased().hasPrefix("BEGIN:VCARD")
    }

    /// Reads the cards of one file in order, one at a time, calling `body`
    /// with each card and the offset up to which the file has been read.
    /// Only one card's text is held at a time, so a file of any size reads
    /// in bounded memory. A card nested in another after an AGENT line
    /// (vCard 2.1) stays inside it; one nested without AGENT (some 2.1
    /// exports) is a card of its own, and the card around it goes on after it.
    package mutating func forEachCard(
        in bytes: UnsafeBufferPointer<UInt8>, source: String, _ body: (Card, Int) throws -> Void
    ) rethrows {
        var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var lineNumber = 0
        // The cards begun and not yet ended, outermost first, each with the
        // depth of the AGENT cards open inside it.
        var open: [(start: Int, line: Int, number: Int, depth: Int)] = []
        // Whether the last line opened an AGENT property, inside which a
        // BEGIN starts a card that belongs to it.
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
            let isContinuation = !open.isEmpty && (line.first == 0x20 || line.first == 0x09)
            switch isContinuation ? nil : Self.marker(line) {
            case .begin?:
                if let card = open.last, isAfterAgent || card.depth > 1 {
                    open[open.count - 1].depth += 1
                } else {
                    // Cards are numbered in the order they begin.
                    cardCount += 1
                    open.append((lineStart, lineNumber, cardCount, 1))
                }
            case .end? where !open.isEmpty:
                open[open.count - 1].depth -= 1
                if let card = open.last, card.depth == 0 {
                    open.removeLast()
                    let card = readCard(UnsafeBufferPointer(rebasing: bytes[card.start..<next]), source: source,
                                        number: card.number, line: card.line)
                    try body(card, open.first?.start ?? next)
                }
            default:
                break
            }
            if !line.isEmpty && !isContinuation { isAfterAgent = Self.opensAgent(line) }
            lineStart = next
        }
        for card in open.reversed() {
            try body(unterminated(source, number: card.number, line: card.line), bytes.count)
        }
    }

    /// The failure of a card whose END:VCARD never came.
    private func unterminated(_ source: String, number: Int, line: Int) -> Card {
        let path = Self.path(source, number, line)
        return Card(path: path, number: number, result: .failure(.invalidContact(field: path, reason: "the card has no END:VCARD.")))
    }

    /// Whether a line is an AGENT property (`AGENT:`, `item1.AGENT;…`).
    private static func opensAgent(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let head = String(decoding: line.prefix(64), as: UTF8.self).uppercased()
        let name = head.split(whereSeparator: { $0 == ":" || $0 == ";" }).first.map { $0.split(separator: ".").last ?? $0 }
        return name == "AGENT"
    }

    /// The cards of one file, read whole.
    package mutating func cards(in data: Data, source: String) -> [Card] {
        var cards: [Card] = []
        let data = data.withUnsafeBytes { UnicodeTranscoding.utf8($0.bindMemory(to: UInt8.self)) } ?? data
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
    private mutating func readCard(_ bytes: UnsafeBufferPointer<UInt8>, source: String, number: Int, line: Int) -> Card {
        let path = Self.path(source, number, line)
        var lines: [VCardContentLine] = []
        var depth = 0
        // A nested card (vCard 2.1's AGENT) is kept whole, as the value of
        // its AGENT line, the way vCard 3.0 writes it.
        var nested: [String] = []
        for (_, bytes) in VCardContentLine.logicalLines(Array(bytes)) {
            guard let line = VCardContentLine(bytes, legacyCharset: legacyCharset) else { continue }
            if let charset = line.charset, let encoding = VCardContentLine.encoding(named: charset),
               encoding != .utf8, encoding != .ascii {
                legacyCharset = encoding
            }
            // Asked of BEGIN and END lines alone: a photo's value is long.
            let isMarker = (line.name == "BEGIN" || line.name == "END")
                && line.value.trimmingCharacters(in: .whitespaces).uppercased() == "VCARD"
            if line.name == "BEGIN" && isMarker {
                depth += 1
                if depth >= 2 { nested.append("BEGIN:VCARD") }
            } else if line.name == "END" && isMarker {
                depth -= 1
                if depth >= 1 { nested.append("END:VCARD") }
                if depth == 1 {
                    // A card nested without AGENT was read as a card of its own.
                    if var agent = lines.last, agent.name == "AGENT" {
                        agent.value = VCardWriter.escape(nested.joined(separator: "\n"))
                        lines[lines.count - 1] = agent
                    }
                    nested = []
                }
            } else if depth == 1 {
                lines.append(line)
            } else if depth > 1 {
                nested.append(line.keptText)
            }
        }
        var mapper = VCardPropertyMapper()
        let result = Result { try mapper.draft(from: lines) }
            .mapError { $0 as? ContactsDBError ?? .invalidContact(field: path, reason: "\($0)") }
        for name in mapper.keptNames { extraProperties[name, default: 0] += 1 }
        return Card(path: path, number: number, result: result)
    }
}
