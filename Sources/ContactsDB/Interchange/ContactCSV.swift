import Foundation

/// Reads contacts from CSV: this engine's own export, Google Contacts'
/// (current and older) and Outlook's, told by their header rows
/// (``CSVLayout``). Each row is a draft the one import pipeline validates
/// and writes as it does JSON and vCard; a column no field holds is kept
/// in `extra` as an `X-` property, and counted.
package struct ContactCSV {
    /// The `X-` properties kept from columns no field holds, with how many
    /// contacts held each.
    package private(set) var keptColumns: [String: Int] = [:]

    package init() {}

    /// The texts a `.text` column may name, by key.
    // Key paths are immutable values; only their type is not marked Sendable.
    nonisolated(unsafe) static let texts: [String: WritableKeyPath<ContactDraft, String?>] = {
        var texts: [String: WritableKeyPath<ContactDraft, String?>] = [
            "firstName": \.firstName, "lastName": \.lastName, "company": \.company,
        ]
        let details: WritableKeyPath<ContactDraft, ContactDetails> = \.details
        for text in DetailText.all { texts[text.key] = details.appending(path: text.field) }
        return texts
    }()

    /// Reads the rows of one file in order, calling `body` with each row's
    /// path (`people.csv row 3 (line 4)`), the bytes read so far and its
    /// draft, or why the row cannot be one.
    ///
    /// - throws: `.invalidContact` naming the line, for a file that is not
    ///   valid CSV or whose header names no column of a known layout.
    package mutating func forEachContact(
        in bytes: UnsafeBufferPointer<UInt8>, source: String,
        _ body: (String, Int, Result<ContactDraft, ContactsDBError>) throws -> Void
    ) throws {
        var records = CSVRecords(bytes, source: source)
        guard let header = try records.next() else { return }
        guard let layout = CSVLayout.recognizing(header) else {
            throw ContactsDBError.invalidContact(
                field: "\(source) line 1", reason: "the header row names no column of a known CSV layout (this engine's "
                    + "export, Google Contacts', Outlook's), nor is the file JSON or vCard; nothing was imported.")
        }
        let columns = Self.columns(of: header, in: layout)
        // The lists' entries, in the order their first column comes.
        var slots: [String: Int] = [:]
        var slotKeys: [(list: CSVLayout.ListKind, label: String?)] = []
        let slotOf: [Int?] = columns.map { column in
            guard case let .entry(list, slot, _, label) = column else { return nil }
            let key = list.rawValue + "\u{1F}" + slot
            if let index = slots[key] { return index }
            slots[key] = slotKeys.count
            slotKeys.append((list, label))
            return slotKeys.count - 1
        }
        let blanks = layout == .outlook ? header.map { CSVLayout.outlookBlanks[$0.trimmingCharacters(in: .whitespaces)] } : []
        var number = 0
        while true {
            let line = records.line
            guard let fields = try records.next() else { break }
            number += 1
            let path = "\(source) row \(number) (line \(line))"
            guard fields.count <= header.count || fields[header.count...].allSatisfy(\.isEmpty) else {
                throw ContactsDBError.invalidContact(
                    field: path, reason: "not valid CSV: the row has \(fields.count) fields and the header \(header.count), "
                        + "so some would have no column; fix the file and try again.")
            }
            // By slot, only those the row fills: a header of thousands of
            // columns costs a short row nothing.
            var entries: [Int: [CSVLayout.Part: String]] = [:]
            var draft = ContactDraft()
            var kept: [String] = []
            var holdsSomething = false
            let result = Result<ContactDraft, Error> {
                for (index, written) in fields.prefix(header.count).enumerated() where !written.isEmpty {
                    let cell = layout == .contactsDB ? written : SpreadsheetCell.restored(written)
                    if !blanks.isEmpty, let blank = blanks[index], cell == blank { continue }
                    holdsSomething = true
                    switch columns[index] {
                    case .id: draft.id = cell
                    case .kind:
                        guard let kind = ContactKind(rawValue: cell) else {
                            throw ContactsDBError.invalidContact(
                                field: "\(path).kind", reason: "\"\(cell)\" is no kind; use individual or organization.")
                        }
                        draft.kind = kind
                    case .age:
                        guard let age = Int(cell) else {
                            throw ContactsDBError.invalidContact(field: "\(path).age", reason: "\"\(cell)\" is no whole number.")
                        }
                        draft.age = age
                    case .favorite: draft.isFavorite = cell == "true"
                    case .groups:
                        // Ours joins them with "; ", Outlook with ";".
                        draft.groups += cell.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                    case .labels:
                        for label in cell.components(separatedBy: CSVLayout.valueSeparator).map({ $0.trimmingCharacters(in: .whitespaces) }) {
                            switch label {
                            case "", CSVLayout.googleMyContacts: break
                            case CSVLayout.googleStarred: draft.isFavorite = true
                            default: draft.groups.append(label)
                            }
                        }
                    case .text(let key): draft[keyPath: Self.texts[key]!] = cell
                    case .birthday: draft.birthday = layout == .outlook ? CSVLayout.outlookDate(cell) ?? cell : cell
                    case let .entry(_, _, part, _): entries[slotOf[index]!, default: [:]][part] = cell
                    case .derived: break
                    case .kept(let name):
                        kept.append(name)
                        draft.extra.append(name + ":" + VCardWriter.escape(cell))
                    }
                }
                for slot in entries.keys.sorted() {
                    add(entries[slot]!, as: slotKeys[slot], to: &draft, layout: layout)
                }
                return draft
            }.mapError { $0 as? ContactsDBError ?? .invalidContact(field: path, reason: "\($0)") }
            // A row of empty cells (Outlook's defaults only) holds no contact.
            guard holdsSomething else { continue }
            if case .success = result { for name in kept { keptColumns[name, default: 0] += 1 } }
            try body(path, records.offset, result)
        }
    }

    /// What each column of `header` holds. A name the header repeats
    /// would fill one field twice: the first column fills it, each later
    /// one is kept as its `X-` property, so that no cell is dropped.
    private static func columns(of header: [String], in layout: CSVLayout) -> [CSVLayout.Column] {
        var named = Set<String>()
        return header.map { name in
            let column = layout.column(named: name), key = name.trimmingCharacters(in: .whitespaces)
            if case .kept = column { return column }
            return named.insert(key).inserted ? column : .kept(CSVLayout.keptName(key))
        }
    }

    /// Adds one entry of a list, read from its parts; ` ::: ` in Google's
    /// value makes several entries of one label.
    private func add(
        _ parts: [CSVLayout.Part: String], as slot: (list: CSVLayout.ListKind, label: String?), to draft: inout ContactDraft,
        layout: CSVLayout
    ) {
        let ours = layout == .contactsDB
        let read: (label: String, preferred: Bool) = ours ? (parts[.label] ?? slot.label ?? "", false)
            : CSVLayout.label(parts[.label] ?? slot.label ?? "")
        let (label, preferred) = (read.label, read.preferred || parts[.preferred] == "true")
        func values(_ part: CSVLayout.Part) -> [String] {
            guard let value = parts[part] else { return [] }
            return ours ? [value] : value.components(separatedBy: CSVLayout.valueSeparator)
        }
        switch slot.list {
        case .phone:
            draft.phones += values(.value).map { Phone(type: label, value: $0, preferred: preferred) }
        case .email:
            draft.emails += values(.value).map { Email(type: label, value: $0, preferred: preferred) }
        case .messenger:
            let service = parts[.service] ?? ""
            draft.messengers += values(.handle).map { Messenger(service: ours ? service : service.lowercased(), handle: $0) }
        case .address:
            addAddress(parts, label: label, preferred: preferred, to: &draft)
        default:
            guard let list = slot.list.cardList else { return }
            // One entry per value (` ::: ` in Google's), or one of the parts
            // where the list has no value (a social profile).
            let valueColumn = list.columns.firstIndex { $0.csv?.part == CSVLayout.Part.value.rawValue }
            let entries: [String?] = valueColumn == nil ? [nil] : values(.value)
            for value in entries {
                list.append(to: &draft.details) { index in
                    let column = list.columns[index]
                    if index == valueColumn, let value {
                        return column.rule == .date && layout == .outlook ? CSVLayout.outlookDate(value) ?? value : value
                    }
                    guard let part = column.csv.flatMap({ CSVLayout.Part(rawValue: $0.part) }) else { return nil }
                    return part == .label ? label : parts[part] ?? ""
                }
            }
        }
    }

    /// Adds an address read from its parts.
    private func addAddress(_ parts: [CSVLayout.Part: String], label: String, preferred: Bool, to draft: inout ContactDraft) {
        // Google's formatted address repeats the parts; it is the
        // street only where no part is given.
        var street = parts[.street] ?? ""
        let partsOfPlace: [CSVLayout.Part] = [.street, .city, .state, .postalCode, .country, .poBox, .street2, .street3]
        let hasParts = partsOfPlace.contains { parts[$0] != nil }
        if !hasParts { street = parts[.formatted] ?? "" }
        let street2 = [parts[.street2], parts[.street3]].compactMap { $0 }.joined(separator: "\n")
        guard !street.isEmpty || !street2.isEmpty || hasParts else { return }
        draft.addresses.append(Address(
            type: label, street1: street, street2: street2, city: parts[.city] ?? "", state: parts[.state] ?? "",
            zipcode: parts[.postalCode] ?? "", country: parts[.country] ?? "", poBox: parts[.poBox] ?? "", preferred: preferred))
    }
}
