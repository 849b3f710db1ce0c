import Foundation

/// What a sync did, or would do (`--dry-run`), on one side.
public struct SyncCounts: Hashable, Sendable, Codable {
    /// Contacts or cards that did not exist on this side before.
    public var new = 0
    /// Contacts or cards that existed and changed.
    public var changed = 0
    /// Contacts or cards that were deleted.
    public var deleted = 0

    /// All counts zero.
    public init() {}
}
