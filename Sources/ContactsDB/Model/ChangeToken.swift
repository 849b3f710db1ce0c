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
