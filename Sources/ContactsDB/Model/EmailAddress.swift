/// One email address of a contact, as a mail client completes it.
public struct EmailAddress: Hashable, Sendable {
    /// The address as stored.
    public var address: String
    /// The contact's display name.
    public var name: String
    /// The address's type (`home`, `work`, or the card's own label).
    public var label: String
}
