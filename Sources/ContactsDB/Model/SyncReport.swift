import Foundation

/// What a sync did: cards pulled into the database, cards pushed to the
/// server, and conflicts it recorded.
public struct SyncReport: Hashable, Sendable {
    public var pulled = SyncCounts()
    public var pushed = SyncCounts()
    /// Conflicts this sync recorded (``ContactStore/conflicts()``).
    public var conflicts = 0
    /// Cards the server holds that could not be read or stored, each with
    /// where and why; they are tried again at the next sync.
    public var skipped: [String] = []

    public init() {}
}
