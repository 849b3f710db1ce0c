/// Properties that name one card rather than the person on it: Apple's
/// `X-ABUID` (`5E7A…:ABPerson`), by which macOS and iOS Contacts tell
/// their cards apart. A copy is a card of its own; were it to carry the
/// original's, Apple's clients would take the two for one card.
package enum CardIdentity {
    private static let properties: Set<String> = ["X-ABUID"]

    /// True when the kept line is such a property, in any item group.
    package static func namesTheCard(_ line: String) -> Bool {
        let name = line.prefix { $0 != ":" && $0 != ";" }
        return properties.contains((name.split(separator: ".").last.map(String.init) ?? "").uppercased())
    }
}
