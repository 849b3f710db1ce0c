/// One contact that changed since a ``ChangeToken``: added, updated or
/// deleted, once, at its latest revision.
public struct ContactChange: Hashable, Sendable, Codable {
    /// How the contact changed since the token.
    public enum Kind: String, Hashable, Sendable, Codable {
        case added, updated, deleted
    }

    /// The contact's id.
    public var id: String
    /// Whether it was added, updated or deleted.
    public var kind: Kind
    /// The change counter when the contact last changed (or was deleted).
    public var revision: Int

    /// A change as a reader of the database records it.
    public init(id: String, kind: Kind, revision: Int) {
        self.id = id
        self.kind = kind
        self.revision = revision
    }
}
