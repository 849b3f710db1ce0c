/// What ``ContactStore/unmerge(_:)`` put back.
public struct UnmergeResult: Hashable, Sendable {
    /// The merged contacts, restored with their ids.
    public var restored: [String]
    /// The contact the others had been merged into.
    public var survivor: String
    /// False when the survivor was edited or deleted after the merge, and
    /// was left as it is.
    public var survivorRestored: Bool
}
