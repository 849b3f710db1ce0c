import ContactsDB

/// Contacts as CSV (RFC 4180): a header row, one row per contact, and each
/// multi-valued field in numbered columns (phone1Type, phone1Value, …).
struct CSVTable {
    let maxChildren: ChildCounts

    var header: String {
        line(["id", "firstName", "lastName", "company", "age", "favorite", "groups", "displayName", "sectionKey"]
            + numbered("phone", maxChildren.phones, ["Type", "Value", "E164"])
            + numbered("email", maxChildren.emails, ["Type", "Value"])
            + numbered("address", maxChildren.addresses,
                       ["Type", "Street1", "Street2", "City", "State", "Zipcode", "Country"])
            + numbered("messenger", maxChildren.messengers, ["Service", "Handle"]))
    }

    func row(_ contact: Contact) -> String {
        var fields = [
            contact.id, contact.firstName ?? "", contact.lastName ?? "", contact.company ?? "",
            contact.age.map(String.init) ?? "", contact.isFavorite ? "true" : "false",
            contact.groups.joined(separator: "; "), contact.displayName, contact.sectionKey,
        ]
        fields += padded(contact.phones.map { [$0.type, $0.value, $0.e164 ?? ""] }, maxChildren.phones, 3)
        fields += padded(contact.emails.map { [$0.type, $0.value] }, maxChildren.emails, 2)
        fields += padded(contact.addresses.map { [$0.type, $0.street1, $0.street2, $0.city, $0.state, $0.zipcode, $0.country] },
                         maxChildren.addresses, 7)
        fields += padded(contact.messengers.map { [$0.service, $0.handle] }, maxChildren.messengers, 2)
        return line(fields)
    }

    private func numbered(_ name: String, _ count: Int, _ parts: [String]) -> [String] {
        count == 0 ? [] : (1...count).flatMap { index in parts.map { "\(name)\(index)\($0)" } }
    }

    private func padded(_ items: [[String]], _ count: Int, _ width: Int) -> [String] {
        items.flatMap { $0 } + Array(repeating: "", count: (count - items.count) * width)
    }

    private func line(_ fields: [String]) -> String {
        fields.map(ContactPrinter.csvField).joined(separator: ",") + "\r\n"
    }
}
