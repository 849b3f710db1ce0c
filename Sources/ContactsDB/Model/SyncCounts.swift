import Foundation

/// What a sync did, or would do (`--dry-run`), on one side.
public struct SyncCounts: Hashable, Sendable, Codable {
    public var new = 0
    public var changed = 0
    public var deleted = 0

    public init() {}
}
