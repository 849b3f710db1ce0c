/// An address book: every contact and group is in exactly one (docs/cli.md,
/// "Address books").
public struct Book: Hashable, Sendable {
    /// Unique in the database whatever its case.
    public var name: String
    /// How many contacts it holds.
    public var contactCount: Int
    /// The address book URL of the remote it syncs with, nil for a local
    /// book.
    public var remoteURL: String?
    /// Whether new contacts go here unless told otherwise.
    public var isDefault: Bool

    /// A book as the store lists it.
    public init(name: String, contactCount: Int, remoteURL: String?, isDefault: Bool) {
        (self.name, self.contactCount, self.remoteURL, self.isDefault) = (name, contactCount, remoteURL, isDefault)
    }

    /// The book a database starts with.
    public static let firstName = "local"
}
