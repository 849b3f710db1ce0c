import Foundation

/// Contacts as CSV (RFC 4180, CR LF line ends): a header row and one row
/// per contact, in one of the layouts ``CSVLayout`` declares. This engine's
/// own holds every field but the vCard parameters and the photo, each list
/// in numbered columns as many as the longest list needs; Google's and
/// Outlook's are their producers' own headers, filled with what they can
/// hold (an `X-` property kept from one of their columns goes back to it).
package struct CSVTable {
    package let layout: CSVLayout
    package let maxChildren: ChildCounts
    private let columns: [(name: String, column: CSVLayout.Column)]

    package init(layout: CSVLayout = .contactsDB, maxChildren: ChildCounts) {
        self.layout = layout
        self.maxChildren = maxChildren
        func count(_ list: CSVLayout.ListKind) -> Int {
            switch list {
            case .phone: return maxChildren.phones
            case .email: return maxChildren.emails
            case .address: return maxChildren.addresses
            case .messenger: return maxChildren.messengers
            default: return list.cardList.flatMap { maxChildren.cardLists[$0.key] } ?? 0
            }
        }
        var columns: [(name: String, column: CSVLayout.Column)] = []
        switch layout {
        case .contactsDB:
            columns = CSVLayout.contactsDBSingles.map { ($0, layout.column(named: $0)) }
            for (list, parts) in CSVLayout.contactsDBLists where count(list) > 0 {
                for number in 1...count(list) {
                    for part in parts {
                        let column = part.part.map { CSVLayout.Column.entry(list, slot: String(number), part: $0) } ?? .derived
                        columns.append(("\(list.rawValue)\(number)\(part.name)", column))
                    }
                }
            }
        case .google, .googleOlder:
            columns = CSVLayout.googleSingles
            for (name, list, parts) in CSVLayout.googleLists where count(list) > 0 {
                for number in 1...count(list) {
                    columns.append(("\(name) \(number) - Label", .entry(list, slot: String(number), part: .label)))
                    for part in parts {
                        columns.append(("\(name) \(number) - \(part.name)", .entry(list, slot: String(number), part: part.part)))
                    }
                }
            }
        case .outlook:
            columns = CSVLayout.outlookHeader
        }
        self.columns = columns
    }

    package var header: String { line(columns.map(\.name)) }

    package func row(_ contact: Contact) -> String {
        let draft = contact.draft
        let entries = self.entries(of: contact)
        var keptValues: [String: String] = [:]
        if layout != .contactsDB {
            for line in contact.extra where line.hasPrefix("X-") {
                if let parsed = VCardContentLine(Array(line.utf8), legacyCharset: .windowsCP1252), keptValues[parsed.name] == nil {
                    keptValues[parsed.name] = parsed.text
                }
            }
        }
        return line(columns.map { entry -> String in
            let (name, column) = entry
            let value: String
            switch column {
            case .id: value = contact.id
            case .kind: value = contact.kind.rawValue
            case .age: value = contact.age.map(String.init) ?? ""
            case .favorite: value = contact.isFavorite ? "true" : "false"
            case .groups: value = contact.groups.joined(separator: layout == .outlook ? ";" : "; ")
            case .labels:
                value = ([CSVLayout.googleMyContacts] + (contact.isFavorite ? [CSVLayout.googleStarred] : []) + contact.groups)
                    .joined(separator: CSVLayout.valueSeparator)
            case .text(let key): value = draft[keyPath: ContactCSV.texts[key]!] ?? ""
            case .birthday:
                value = layout == .outlook ? contact.birthday.flatMap(CSVLayout.outlookDateText) ?? "" : contact.birthday ?? ""
            case let .entry(list, slot, part, _): value = entries[list.rawValue + "\u{1F}" + slot]?[part] ?? ""
            case .derived:
                switch name {
                case "displayName": value = contact.displayName
                case "sectionKey": value = contact.sectionKey
                case "hasPhoto": value = contact.hasPhoto ? "true" : "false"
                default: value = entries[Self.e164Key(name)]?[.value] ?? ""
                }
            case .kept(let property): value = keptValues[property] ?? ""
            }
            if layout == .outlook, value.isEmpty, let blank = CSVLayout.outlookBlanks[name] { return blank }
            return layout == .contactsDB ? value : SpreadsheetCell.neutralised(value)
        })
    }

    /// Where a phone's derived E.164 form is found: `phone2E164` reads the
    /// second phone's.
    private static func e164Key(_ column: String) -> String {
        "e164\u{1F}" + column.dropFirst("phone".count).dropLast("E164".count)
    }

    /// The contact's list entries by the slot their columns name, each as
    /// its parts' texts.
    private func entries(of contact: Contact) -> [String: [CSVLayout.Part: String]] {
        var entries: [String: [CSVLayout.Part: String]] = [:]
        func put(_ list: CSVLayout.ListKind, _ slot: String, _ parts: [CSVLayout.Part: String]) {
            entries[list.rawValue + "\u{1F}" + slot] = parts
        }
        let flag = { (preferred: Bool) in preferred ? "true" : "" }
        let google = layout == .google || layout == .googleOlder
        func label(_ text: String, _ preferred: Bool = false) -> String {
            google ? CSVLayout.googleLabel(text, preferred: preferred) : text
        }
        if layout == .outlook { return outlookEntries(of: contact) }
        for (index, phone) in contact.phones.enumerated() {
            put(.phone, String(index + 1), [.label: label(phone.type, phone.preferred), .value: phone.value,
                                            .preferred: flag(phone.preferred)])
            entries["e164\u{1F}\(index + 1)"] = [.value: phone.e164 ?? ""]
        }
        for (index, email) in contact.emails.enumerated() {
            put(.email, String(index + 1), [.label: label(email.type, email.preferred), .value: email.value,
                                            .preferred: flag(email.preferred)])
        }
        for (index, address) in contact.addresses.enumerated() {
            put(.address, String(index + 1), [
                .label: label(address.type, address.preferred), .poBox: address.poBox, .street: address.street1,
                .street2: address.street2, .city: address.city, .state: address.state, .postalCode: address.zipcode,
                .country: address.country, .preferred: flag(address.preferred),
            ])
        }
        for (index, messenger) in contact.messengers.enumerated() {
            let service = google ? messenger.service.prefix(1).uppercased() + messenger.service.dropFirst() : messenger.service
            put(.messenger, String(index + 1), [.label: google ? "Other" : "", .service: service, .handle: messenger.handle])
        }
        for list in CardList.all {
            for (index, texts) in list.rows(of: contact.details).enumerated() {
                var parts: [CSVLayout.Part: String] = [:]
                for (column, text) in zip(list.columns, texts) {
                    guard let part = column.csv.flatMap({ CSVLayout.Part(rawValue: $0.part) }) else { continue }
                    parts[part] = part == .label ? label(text ?? "") : text ?? ""
                }
                put(CSVLayout.ListKind(list), String(index + 1), parts)
            }
        }
        return entries
    }

    /// Outlook's columns are places with a meaning (`Business Phone`, `Home
    /// Street`): each value goes to the first free place of its label, else
    /// to the `Other` one; one for which no place is left is not written.
    private func outlookEntries(of contact: Contact) -> [String: [CSVLayout.Part: String]] {
        var entries: [String: [CSVLayout.Part: String]] = [:]
        func place(_ list: CSVLayout.ListKind, _ candidates: [String], _ parts: [CSVLayout.Part: String]) {
            guard let slot = candidates.first(where: { entries[list.rawValue + "\u{1F}" + $0] == nil }) else { return }
            entries[list.rawValue + "\u{1F}" + slot] = parts
        }
        for phone in contact.phones {
            let slots = CSVLayout.outlookPhones.filter { $0.label == phone.type }.map(\.name) + ["Other Phone", "Primary Phone"]
            place(.phone, slots, [.value: phone.value])
        }
        for email in contact.emails { place(.email, ["1", "2", "3"], [.value: email.value]) }
        for address in contact.addresses {
            let slot = ["work": "Business", "home": "Home"][address.type] ?? "Other"
            let lines = address.street2.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            place(.address, [slot, "Other"], [
                .street: address.street1, .street2: lines.first ?? "", .street3: lines.count > 1 ? lines[1] : "",
                .city: address.city, .state: address.state, .postalCode: address.zipcode, .country: address.country,
                .poBox: address.poBox,
            ])
        }
        for date in contact.dates where date.type == "anniversary" {
            place(.date, ["Anniversary"], [.value: CSVLayout.outlookDateText(date.value) ?? ""])
        }
        let relationSlots = ["spouse": "Spouse", "child": "Children", "assistant": "Assistant's Name", "manager": "Manager's Name"]
        for relation in contact.relations {
            if let slot = relationSlots[relation.type] { place(.relation, [slot], [.value: relation.name]) }
        }
        if let url = contact.urls.first { place(.url, ["Web Page"], [.value: url.value]) }
        return entries
    }

    private func line(_ fields: [String]) -> String {
        fields.map(Self.field).joined(separator: ",") + "\r\n"
    }

    /// A field quoted where it holds a separator, a quote or a line break.
    package static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
