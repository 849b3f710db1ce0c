import Foundation

extension GroupCard {
    /// The group card a mapped card is, or nil for a contact's: a card
    /// whose KIND (4.0) or X-ADDRESSBOOKSERVER-KIND (Apple's 3.0) is
    /// `group`, which the mapper keeps in `extra` with the member lines.
    /// Its name is its FN (else N, else ORG, else its UID); whatever else
    /// it holds is kept, as the lines the card writer gives it.
    package init?(_ draft: ContactDraft) {
        // Most cards keep no KIND line: skip parsing their extras.
        guard draft.extra.contains(where: { $0.range(of: "KIND", options: .caseInsensitive) != nil }) else { return nil }
        var isGroup = false, members: [String] = [], kept: [String] = [], taken: [String] = []
        for line in draft.extra {
            guard let parsed = VCardContentLine(Array(line.utf8), legacyCharset: .utf8) else {
                kept.append(line)
                continue
            }
            let value = parsed.text.trimmingCharacters(in: .whitespaces)
            switch parsed.name {
            case "KIND", "X-ADDRESSBOOKSERVER-KIND":
                if value.lowercased() == "group" { isGroup = true } else { kept.append(line); continue }
                taken.append(parsed.name)
            case "MEMBER", "X-ADDRESSBOOKSERVER-MEMBER":
                if value.isEmpty { kept.append(line); continue }
                members.append(Self.contactID(value).map { Self.memberPrefix + $0 } ?? value)
                taken.append(parsed.name)
            default:
                kept.append(line)
            }
        }
        guard isGroup else { return nil }
        let names = [draft.firstName, draft.lastName].compactMap { $0 }.joined(separator: " ")
        let name = [draft.formattedName, names, draft.company].compactMap { $0?.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty } ?? draft.id ?? "Unnamed group"
        // Everything else the card held, written as the contact writer
        // writes it, without what a group card writes itself.
        var rest = draft
        (rest.firstName, rest.lastName, rest.middleName, rest.namePrefix, rest.nameSuffix, rest.formattedName) =
            (nil, nil, nil, nil, nil, nil)
        if draft.formattedName == nil, names.isEmpty { rest.company = nil }
        rest.extra = kept
        let card = Contact(
            id: draft.id ?? "", firstName: nil, lastName: nil, company: rest.company, age: rest.age, phones: rest.phones,
            emails: rest.emails, addresses: rest.addresses, messengers: rest.messengers, isFavorite: rest.isFavorite,
            groups: rest.groups, details: rest.details, displayName: "", sortName: "", sectionKey: "", sortIndex: 0,
            createdAt: Date(), updatedAt: Date(), revision: 0)
        let written: Set<String> = ["BEGIN", "END", "VERSION", "PRODID", "UID", "FN", "N"]
        let properties = card.vCard(version: .v4).replacingOccurrences(of: "\r\n ", with: "")
            .components(separatedBy: "\r\n").filter { line in
                guard !line.isEmpty, let parsed = VCardContentLine(Array(line.utf8), legacyCharset: .utf8) else { return false }
                return !written.contains(parsed.name)
            }
        self.init(uid: draft.id, name: name, members: members, properties: properties)
        kindAndMemberLines = taken
    }

    /// The card in `version`'s form: 4.0 KIND and MEMBER, 3.0 Apple's.
    package func vCard(version: VCardVersion) -> String {
        var card = VCardWriter.Card(version: version, extra: properties)
        card.add("VERSION:\(version.rawValue)")
        card.add("PRODID:-//contactsdb//contactsdb//EN")
        card.add("UID:\(VCardWriter.escape(uid ?? ""))")
        card.add(version == .v4 ? "KIND:group" : "X-ADDRESSBOOKSERVER-KIND:group")
        card.add("FN:\(VCardWriter.escape(name))")
        card.add("N:\(VCardWriter.structured([name]));;;;")
        for member in members { card.add((version == .v4 ? "MEMBER:" : "X-ADDRESSBOOKSERVER-MEMBER:") + member) }
        for line in properties { card.add(VCardWriter.extraLine(line, version: version)) }
        return card.text
    }
}
