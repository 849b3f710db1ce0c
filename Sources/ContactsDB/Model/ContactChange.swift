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

/// Where a reader of changes stands in one database's history: pass it to
/// ``ContactStore/changes(since:inBooks:)`` to get what changed after it.
///
/// Tokens are opaque text: keep them whole, compare nothing inside. A token
/// names its database, so another database's is refused, not misread.
public struct ChangeToken: Hashable, Sendable, CustomStringConvertible {
    let databaseIdentity: String
    let revision: Int

    init(databaseIdentity: String, revision: Int) {
        self.databaseIdentity = databaseIdentity
        self.revision = revision
    }

    /// Reads a token written by ``description``; nil for any other text.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 32, parts[0].allSatisfy(\.isHexDigit),
              let revision = Int(parts[1]), revision >= 0, String(revision) == parts[1]
        else { return nil }
        self.init(databaseIdentity: String(parts[0]), revision: revision)
    }

    /// The token as text to keep and hand back: the database's identity and
    /// its change counter.
    public var description: String { "\(databaseIdentity)-\(revision)" }
}

/// What changed since a token, and the token to ask with next time.
public struct ChangeSet: Hashable, Sendable {
    /// The token to pass to the next
    /// ``ContactStore/changes(since:inBooks:)``.
    public var token: ChangeToken
    /// Each contact that changed, once.
    public var changes: [ContactChange]
}
