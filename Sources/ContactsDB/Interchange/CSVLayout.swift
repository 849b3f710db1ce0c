import Foundation

/// The CSV layouts `import` reads and `export` writes, each a table of
/// facts about its producer: which header names which field, how a cell
/// spells a label, a list or a date. One reader (``ContactCSV``) and one
/// writer (``CSVTable``) work from these tables; a column no table names
/// is kept as an `X-` property.
package enum CSVLayout: String, Sendable, CaseIterable {
    /// This engine's own export: the JSON keys, lists in numbered columns
    /// (`phone1Type`, `phone1Value`, …).
    case contactsDB
    /// Google Contacts' export since 2021: `First Name`, `E-mail 1 - Label`,
    /// `E-mail 1 - Value`, `Labels`, …
    case google
    /// Google Contacts' older export: `Name`, `Given Name`, `Family Name`,
    /// `Group Membership`, `E-mail 1 - Type`, …
    case googleOlder
    /// Outlook's export: `First Name`, `E-mail Address`, `Business Phone`,
    /// `Home Street`, `Categories`, …
    case outlook

    /// What a column holds.
    package enum Column: Equatable {
        case id, kind, age, favorite, groups
        /// Google's `Labels`: groups, `* starred` (a favorite) and
        /// `* myContacts` (no group).
        case labels
        /// One of the contact's texts (names, company, the whole card's).
        case text(String)
        case birthday
        /// A part of one entry of a list; `slot` tells entries apart,
        /// `label` is the column's own label (Outlook's `Business Phone`).
        case entry(ListKind, slot: String, part: Part, label: String? = nil)
        /// Derived by the engine (`displayName`, a phone's E.164 form): read
        /// and ignored, as JSON's derived keys are.
        case derived
        /// A column no field holds, kept as this `X-` property.
        case kept(String)
    }

    /// A list of the contact, by the prefix of its columns: the four of
    /// its own, or one of ``CardList/all`` by its `item`.
    package struct ListKind: Hashable, Sendable {
        package let rawValue: String

        package static let phone = ListKind(rawValue: "phone"), email = ListKind(rawValue: "email")
        package static let address = ListKind(rawValue: "address"), messenger = ListKind(rawValue: "messenger")
        /// The card's lists that other producers' layouts name.
        package static let date = ListKind(CardList.byKey["dates"]!), url = ListKind(CardList.byKey["urls"]!)
        package static let relation = ListKind(CardList.byKey["relations"]!)

        package init(rawValue: String) { self.rawValue = rawValue }
        package init(_ list: CardList) { rawValue = list.item }

        /// The card's list it is, if it is one.
        package var cardList: CardList? { CardList.byItem[rawValue] }
    }

    package enum Part: String, Sendable {
        case label, value, preferred, poBox, street, street2, street3, city, state, postalCode, country, formatted
        case service, handle, url
    }

    // MARK: - Telling layouts apart

    /// The layout whose table knows most of `header`'s names; nil when no
    /// table knows any.
    package static func recognizing(_ header: [String]) -> CSVLayout? {
        let scores = allCases.map { layout in (layout, header.filter { layout.knows($0) }.count) }
        guard let best = scores.max(by: { $0.1 < $1.1 }), best.1 > 0 else { return nil }
        return best.0
    }

    private func knows(_ name: String) -> Bool {
        switch column(named: name) {
        case .kept: return false
        default: return true
        }
    }

    // MARK: - Reading a header

    /// What the column of this header name holds.
    package func column(named raw: String) -> Column {
        let name = raw.trimmingCharacters(in: .whitespaces)
        switch self {
        case .contactsDB: return Self.contactsDBColumn(name) ?? .kept(Self.keptName(name))
        case .google, .googleOlder: return googleColumn(name) ?? .kept(Self.keptName(name))
        case .outlook: return Self.outlookColumns[name] ?? .kept(Self.keptName(name))
        }
    }

    /// The `X-` property a column no field holds is kept as: its name in
    /// capitals, every run of other characters a hyphen (`Assistant's Name`
    /// is `X-ASSISTANT-S-NAME`), so that an export in the producer's layout
    /// finds the column again.
    package static func keptName(_ header: String) -> String {
        var name = "X-"
        var pendingHyphen = false
        for scalar in header.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if pendingHyphen, name.count > 2 { name += "-" }
                name.unicodeScalars.append(scalar)
                pendingHyphen = false
            } else {
                pendingHyphen = true
            }
        }
        return name.uppercased() == "X-" ? "X-COLUMN" : name.uppercased()
    }

    // MARK: - This engine's own layout

    /// The single columns, in the order export writes them.
    package static let contactsDBSingles: [String] = ["id", "kind", "firstName", "lastName", "company", "age", "favorite", "groups",
                                                     "displayName", "sectionKey"] + DetailText.all.map(\.key) + ["hasPhoto"]

    /// Each list's column prefix and the parts of an entry, with what each
    /// part holds, in the order export writes them.
    package static let contactsDBLists: [(list: ListKind, parts: [(name: String, part: Part?)])] = [
        (.phone, [("Type", .label), ("Value", .value), ("E164", nil), ("Preferred", .preferred)]),
        (.email, [("Type", .label), ("Value", .value), ("Preferred", .preferred)]),
        (.address, [("Type", .label), ("PoBox", .poBox), ("Street1", .street), ("Street2", .street2), ("City", .city),
                    ("State", .state), ("Zipcode", .postalCode), ("Country", .country), ("Preferred", .preferred)]),
        (.messenger, [("Service", .service), ("Handle", .handle)]),
    ] + CardList.all.map { list in
        (ListKind(list), list.columns.compactMap { column -> (name: String, part: Part?)? in
            column.csv.map { (name: $0.suffix, part: Part(rawValue: $0.part)!) }
        })
    }

    private static func contactsDBColumn(_ name: String) -> Column? {
        switch name {
        case "id": return .id
        case "kind": return .kind
        case "age": return .age
        case "favorite": return .favorite
        case "groups": return .groups
        case "birthday": return .birthday
        case "displayName", "sectionKey", "hasPhoto": return .derived
        case "firstName", "lastName", "company": return .text(name)
        case _ where DetailText.all.contains(where: { $0.key == name }): return .text(name)
        default: break
        }
        // `phone12Value`: a list's prefix, a number, a part.
        for (list, parts) in contactsDBLists where name.hasPrefix(list.rawValue) {
            let rest = name.dropFirst(list.rawValue.count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.first != "0", let match = parts.first(where: { $0.name == rest.dropFirst(digits.count) })
            else { continue }
            return match.part.map { .entry(list, slot: String(digits), part: $0) } ?? .derived
        }
        return nil
    }

    // MARK: - Google's layouts

    /// The single columns of Google's current export, in its order, and
    /// what each holds.
    package static let googleSingles: [(name: String, column: Column)] = [
        ("First Name", .text("firstName")), ("Middle Name", .text("middleName")), ("Last Name", .text("lastName")),
        ("Phonetic First Name", .text("phoneticFirstName")), ("Phonetic Middle Name", .text("phoneticMiddleName")),
        ("Phonetic Last Name", .text("phoneticLastName")), ("Name Prefix", .text("namePrefix")),
        ("Name Suffix", .text("nameSuffix")), ("Nickname", .text("nickname")), ("File As", .kept("X-FILE-AS")),
        ("Organization Name", .text("company")), ("Organization Title", .text("jobTitle")),
        ("Organization Department", .text("department")), ("Birthday", .birthday), ("Notes", .text("note")),
        ("Photo", .kept("X-PHOTO")), ("Labels", .labels),
    ]

    /// The older export's single columns that a field holds.
    private static let googleOlderSingles: [String: Column] = [
        "Name": .text("formattedName"), "Given Name": .text("firstName"), "Additional Name": .text("middleName"),
        "Family Name": .text("lastName"), "Given Name Yomi": .text("phoneticFirstName"),
        "Additional Name Yomi": .text("phoneticMiddleName"), "Family Name Yomi": .text("phoneticLastName"),
        "Name Prefix": .text("namePrefix"), "Name Suffix": .text("nameSuffix"), "Nickname": .text("nickname"),
        "Birthday": .birthday, "Notes": .text("note"), "Group Membership": .labels,
        "Organization 1 - Name": .text("company"), "Organization 1 - Title": .text("jobTitle"),
        "Organization 1 - Department": .text("department"),
    ]

    /// Google's numbered lists (`Phone 2 - Value`): the name before the
    /// number, the list, and each part's name after ` - `. The label is
    /// `Label` in the current export and `Type` in the older one.
    package static let googleLists: [(name: String, list: ListKind, parts: [(name: String, part: Part)])] = [
        ("E-mail", .email, [("Value", .value)]),
        ("Phone", .phone, [("Value", .value)]),
        ("Address", .address, [("Formatted", .formatted), ("Street", .street), ("City", .city), ("PO Box", .poBox),
                               ("Region", .state), ("Postal Code", .postalCode), ("Country", .country),
                               ("Extended Address", .street2)]),
        ("Relation", .relation, [("Value", .value)]),
        ("Website", .url, [("Value", .value)]),
        ("Event", .date, [("Value", .value)]),
        ("IM", .messenger, [("Service", .service), ("Value", .handle)]),
    ]

    private func googleColumn(_ name: String) -> Column? {
        if self == .google, let single = Self.googleSingles.first(where: { $0.name == name }) { return single.column }
        if self == .googleOlder, let single = Self.googleOlderSingles[name] { return single }
        let pieces = name.components(separatedBy: " - ")
        guard pieces.count == 2, let space = pieces[0].lastIndex(of: " ") else { return nil }
        let (listName, number) = (String(pieces[0][..<space]), String(pieces[0][pieces[0].index(after: space)...]))
        guard let list = Self.googleLists.first(where: { $0.name == listName }), Int(number) != nil else { return nil }
        if pieces[1] == (self == .google ? "Label" : "Type") { return .entry(list.list, slot: number, part: .label) }
        return list.parts.first { $0.name == pieces[1] }.map { .entry(list.list, slot: number, part: $0.part) }
    }

    // MARK: - Outlook's layout

    /// Outlook's export, every column in its order, with what each holds.
    package static let outlookHeader: [(name: String, column: Column)] = {
        func kept(_ names: String...) -> [(name: String, column: Column)] { names.map { ($0, .kept(keptName($0))) } }
        var columns: [(name: String, column: Column)] = [
            ("Title", .text("namePrefix")), ("First Name", .text("firstName")), ("Middle Name", .text("middleName")),
            ("Last Name", .text("lastName")), ("Suffix", .text("nameSuffix")), ("Company", .text("company")),
            ("Department", .text("department")), ("Job Title", .text("jobTitle")),
        ]
        let addressParts: [(name: String, part: Part)] = [
            ("Street", .street), ("Street 2", .street2), ("Street 3", .street3), ("City", .city), ("State", .state),
            ("Postal Code", .postalCode), ("Country/Region", .country),
        ]
        for (place, label) in [("Business", "work"), ("Home", "home"), ("Other", "other")] {
            for part in addressParts {
                columns.append(("\(place) \(part.name)", .entry(.address, slot: place, part: part.part, label: label)))
            }
        }
        for phone in outlookPhones {
            columns.append((phone.name, .entry(.phone, slot: phone.name, part: .value, label: phone.label)))
        }
        columns += kept("Account")
        columns += [
            ("Anniversary", .entry(.date, slot: "Anniversary", part: .value, label: "anniversary")),
            ("Assistant's Name", .entry(.relation, slot: "Assistant's Name", part: .value, label: "assistant")),
        ]
        columns += kept("Billing Information")
        columns += [
            ("Birthday", .birthday),
            ("Business Address PO Box", .entry(.address, slot: "Business", part: .poBox, label: "work")),
            ("Categories", .groups),
            ("Children", .entry(.relation, slot: "Children", part: .value, label: "child")),
        ]
        columns += kept("Directory Server")
        for (index, prefix) in ["E-mail", "E-mail 2", "E-mail 3"].enumerated() {
            columns.append(("\(prefix) Address", .entry(.email, slot: String(index + 1), part: .value, label: "other")))
            columns += kept("\(prefix) Type", "\(prefix) Display Name")
        }
        columns += kept("Gender", "Government ID Number", "Hobby")
        columns.append(("Home Address PO Box", .entry(.address, slot: "Home", part: .poBox, label: "home")))
        columns += kept("Initials", "Internet Free Busy", "Keywords", "Language", "Location")
        columns.append(("Manager's Name", .entry(.relation, slot: "Manager's Name", part: .value, label: "manager")))
        columns += kept("Mileage")
        columns.append(("Notes", .text("note")))
        columns += kept("Office Location", "Organizational ID Number")
        columns.append(("Other Address PO Box", .entry(.address, slot: "Other", part: .poBox, label: "other")))
        columns += kept("Priority", "Private", "Profession", "Referred By", "Sensitivity")
        columns.append(("Spouse", .entry(.relation, slot: "Spouse", part: .value, label: "spouse")))
        columns += kept("User 1", "User 2", "User 3", "User 4")
        columns.append(("Web Page", .entry(.url, slot: "Web Page", part: .value, label: "other")))
        return columns
    }()

    /// Outlook's phone columns and the label each gives its number.
    package static let outlookPhones: [(name: String, label: String)] = [
        ("Assistant's Phone", "assistant"), ("Business Fax", "work fax"), ("Business Phone", "work"),
        ("Business Phone 2", "work"), ("Callback", "callback"), ("Car Phone", "car"), ("Company Main Phone", "main"),
        ("Home Fax", "home fax"), ("Home Phone", "home"), ("Home Phone 2", "home"), ("ISDN", "isdn"),
        ("Mobile Phone", "mobile"), ("Other Fax", "other fax"), ("Other Phone", "other"), ("Pager", "pager"),
        ("Primary Phone", "primary"), ("Radio Phone", "radio"), ("TTY/TDD Phone", "tty"), ("Telex", "telex"),
    ]

    /// Outlook's columns, and those of Outlook.com's export that the
    /// desktop layout, which export writes, has not (`Nickname`).
    private static let outlookColumns = Dictionary(outlookHeader.map { ($0.name, $0.column) }, uniquingKeysWith: { first, _ in first })
        .merging(["Nickname": .text("nickname")]) { first, _ in first }

    /// What Outlook writes in a column that holds nothing: `0/0/00` for no
    /// date, and its defaults for the columns a person rarely sets. Read
    /// as empty; written where the contact has nothing for the column.
    package static let outlookBlanks: [String: String] = [
        "Birthday": "0/0/00", "Anniversary": "0/0/00", "Gender": "Unspecified", "Priority": "Normal",
        "Sensitivity": "Normal", "Private": "False",
    ]

    // MARK: - Cells

    /// The text of a cell that holds several values (` ::: ` in Google's).
    package static let valueSeparator = " ::: "

    /// Outlook's `M/D/YYYY` as `YYYY-MM-DD`; nil for any other text.
    package static func outlookDate(_ text: String) -> String? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let month = Int(parts[0]), let day = Int(parts[1]), let year = Int(parts[2]),
              parts[2].count == 4, (1...12).contains(month), (1...31).contains(day) else { return nil }
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// `YYYY-MM-DD` as Outlook's `M/D/YYYY`; nil for a date without a year,
    /// which Outlook cannot hold.
    package static func outlookDateText(_ date: String) -> String? {
        let parts = date.split(separator: "-")
        guard !date.hasPrefix("--"), parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        return "\(month)/\(day)/\(year)"
    }

    /// A producer's label as this engine's: the labels it knows in lower
    /// case (`Mobile` is `mobile`), any other as written; Google marks the
    /// preferred value with a leading `* `.
    package static func label(_ text: String) -> (label: String, preferred: Bool) {
        var text = text.trimmingCharacters(in: .whitespaces)
        let preferred = text.hasPrefix("* ")
        if preferred { text = String(text.dropFirst(2)) }
        if knownLabels.contains(text.lowercased()) { return (text.lowercased(), preferred) }
        return (text.isEmpty ? WellKnownLabel.other.rawValue : text, preferred)
    }

    /// The labels this engine writes in lower case, as vCard types: a
    /// phone's, email's or address's, a date's and a relation's.
    private static let knownLabels = Set(WellKnownLabel.allCases.map(\.rawValue)).union([
        "anniversary", "spouse", "child", "parent", "mother", "father", "brother", "sister", "friend", "partner",
        "relative", "assistant", "manager",
    ])

    /// This engine's label as Google writes it: the known ones capitalized.
    package static func googleLabel(_ label: String, preferred: Bool = false) -> String {
        let text = knownLabels.contains(label) ? label.prefix(1).uppercased() + label.dropFirst() : label
        return preferred ? "* " + text : text
    }

    /// Google's system groups.
    package static let googleMyContacts = "* myContacts", googleStarred = "* starred"
}
