import ContactsDB

/// Contacts as CSV (RFC 4180): a header row, one row per contact, every
/// field the model holds, and each list in numbered columns (phone1Type,
/// phone1Value, …) as many as the longest list needs.
struct CSVTable {
    let maxChildren: ChildCounts

    typealias Column = (name: String, value: @Sendable (Contact) -> String)

    /// The single-valued columns, in order: the whole card's texts as
    /// ``DetailText`` declares them.
    private static let fields: [Column] = leadingFields + DetailText.all.map(detailColumn) + [hasPhoto]

    private static let hasPhoto: Column = ("hasPhoto", { $0.hasPhoto ? "true" : "false" })

    private static let leadingFields: [Column] = [
        ("id", \.id), ("kind", { $0.kind.rawValue }), ("firstName", { $0.firstName ?? "" }),
        ("lastName", { $0.lastName ?? "" }), ("company", { $0.company ?? "" }),
        ("age", { $0.age.map(String.init) ?? "" }), ("favorite", { $0.isFavorite ? "true" : "false" }),
        ("groups", { $0.groups.joined(separator: "; ") }), ("displayName", \.displayName), ("sectionKey", \.sectionKey),
    ]

    private static func detailColumn(_ text: DetailText) -> Column {
        (text.key, { @Sendable contact in contact.details[keyPath: text.field] ?? "" })
    }

    /// The lists: column prefix, the parts of each entry, how many columns
    /// of entries, and each entry's parts.
    private var lists: [(name: String, parts: [String], count: Int, entries: (Contact) -> [[String]])] {
        let flag = { (preferred: Bool) in preferred ? "true" : "" }
        return [
            ("phone", ["Type", "Value", "E164", "Preferred"], maxChildren.phones,
             { $0.phones.map { [$0.type, $0.value, $0.e164 ?? "", flag($0.preferred)] } }),
            ("email", ["Type", "Value", "Preferred"], maxChildren.emails,
             { $0.emails.map { [$0.type, $0.value, flag($0.preferred)] } }),
            ("address", ["Type", "PoBox", "Street1", "Street2", "City", "State", "Zipcode", "Country", "Preferred"],
             maxChildren.addresses, { $0.addresses.map {
                 [$0.type, $0.poBox, $0.street1, $0.street2, $0.city, $0.state, $0.zipcode, $0.country, flag($0.preferred)]
             } }),
            ("messenger", ["Service", "Handle"], maxChildren.messengers, { $0.messengers.map { [$0.service, $0.handle] } }),
            ("date", ["Type", "Value"], maxChildren.dates, { $0.dates.map { [$0.type, $0.value] } }),
            ("url", ["Type", "Value"], maxChildren.urls, { $0.urls.map { [$0.type, $0.value] } }),
            ("relation", ["Type", "Name"], maxChildren.relations, { $0.relations.map { [$0.type, $0.name] } }),
            ("socialProfile", ["Service", "Handle", "Url"], maxChildren.socialProfiles,
             { $0.socialProfiles.map { [$0.service, $0.handle, $0.url] } }),
            ("extra", [""], maxChildren.extra, { $0.extra.map { [$0] } }),
        ]
    }

    var header: String {
        line(Self.fields.map(\.name) + lists.flatMap { list in
            list.count == 0 ? [] : (1...list.count).flatMap { index in list.parts.map { "\(list.name)\(index)\($0)" } }
        })
    }

    func row(_ contact: Contact) -> String {
        line(Self.fields.map { $0.value(contact) } + lists.flatMap { list in
            list.entries(contact).flatMap { $0 } + Array(repeating: "", count: (list.count - list.entries(contact).count) * list.parts.count)
        })
    }

    private func line(_ fields: [String]) -> String {
        fields.map(ContactPrinter.csvField).joined(separator: ",") + "\r\n"
    }
}
