/// A group as address books hold it in a card of its own (docs/cli.md,
/// "Favorites and groups"): vCard 4.0 `KIND:group` with `MEMBER` lines, or
/// Apple's 3.0 `X-ADDRESSBOOKSERVER-KIND:group` with
/// `X-ADDRESSBOOKSERVER-MEMBER` lines.
package struct GroupCard: Hashable, Sendable {
    /// The card's UID; nil for a card without one.
    package var uid: String?
    package var name: String
    /// Each member as the card names it: `urn:uuid:ID` of a contact, or
    /// another URI (mailto:, tel:, sip:), kept as written.
    package var members: [String]
    /// The card's other properties, one unfolded content line each.
    package var properties: [String]
    /// The names of the lines read as the kind and the members, which a
    /// contact's card would have kept as extra properties.
    package var kindAndMemberLines: [String] = []

    package init(uid: String?, name: String, members: [String], properties: [String]) {
        (self.uid, self.name, self.members, self.properties) = (uid, name, members, properties)
    }

    package static let memberPrefix = "urn:uuid:"

    /// The name and members as one text, members sorted: what two sides of
    /// a sync compare, and the base they last agreed on.
    package var agreement: String {
        ([name] + members.sorted()).joined(separator: "\n")
    }

    /// The name and members an ``agreement`` holds.
    package static func agreed(_ text: String) -> (name: String, members: Set<String>) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return (lines.first ?? "", Set(lines.dropFirst()))
    }

    /// The contact id a member names, if it names one.
    package static func contactID(_ member: String) -> String? {
        guard member.lowercased().hasPrefix(memberPrefix) else { return nil }
        let id = String(member.dropFirst(memberPrefix.count))
        return id.isEmpty ? nil : id
    }
}
