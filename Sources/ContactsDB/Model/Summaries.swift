/// How many children of each kind, e.g. the most any contact has.
public struct ChildCounts: Hashable, Sendable {
    public var phones = 0, emails = 0, addresses = 0, messengers = 0

    public init(phones: Int = 0, emails: Int = 0, addresses: Int = 0, messengers: Int = 0) {
        self.phones = phones
        self.emails = emails
        self.addresses = addresses
        self.messengers = messengers
    }
}

/// A group and how many contacts it holds.
public struct ContactGroup: Hashable, Sendable, Codable {
    public var name: String
    public var memberCount: Int
}
