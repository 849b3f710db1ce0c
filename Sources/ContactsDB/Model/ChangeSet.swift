/// What changed since a token, and the token to ask with next time.
public struct ChangeSet: Hashable, Sendable {
    /// The token to pass to the next
    /// ``ContactStore/changes(since:inBooks:)``.
    public var token: ChangeToken
    /// Each contact that changed, once.
    public var changes: [ContactChange]
}
