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

/// A group and how many contacts it holds.
public struct ContactGroup: Hashable, Sendable, Codable {
    /// The group's name, unique in its address book.
    public var name: String
    /// The UID its group card has, or was given here.
    public var uid: String
    /// How many contacts are in it.
    public var memberCount: Int
    /// The name of the address book it is in.
    public var book: String
}

/// One email address of a contact, as a mail client completes it.
public struct EmailAddress: Hashable, Sendable {
    /// The address as stored.
    public var address: String
    /// The contact's display name.
    public var name: String
    /// The address's type (`home`, `work`, or the card's own label).
    public var label: String
}
