/// How many children of each kind, e.g. the most any contact has.
public struct ChildCounts: Hashable, Sendable {
    /// Phones, emails, addresses and messengers.
    public var phones = 0, emails = 0, addresses = 0, messengers = 0
    /// The whole card's lists, by their JSON keys (`dates`, `urls`,
    /// `relations`, `socialProfiles`, `extra`).
    public var cardLists: [String: Int] = [:]

    /// Counts of the four main lists; the card's lists start empty.
    public init(phones: Int = 0, emails: Int = 0, addresses: Int = 0, messengers: Int = 0) {
        self.phones = phones
        self.emails = emails
        self.addresses = addresses
        self.messengers = messengers
    }

    /// The most of each kind that any one of `contacts` holds.
    public init(mostIn contacts: [Contact]) {
        for contact in contacts {
            phones = max(phones, contact.phones.count)
            emails = max(emails, contact.emails.count)
            addresses = max(addresses, contact.addresses.count)
            messengers = max(messengers, contact.messengers.count)
            for list in CardList.all {
                cardLists[list.key] = max(cardLists[list.key] ?? 0, list.count(in: contact.details))
            }
        }
    }
}
