import Foundation

/// A merge of duplicates, kept until it is taken back
/// (``ContactStore/unmerge(_:)``).
public struct MergeRecord: Hashable, Sendable {
    /// The merge's number, which ``ContactStore/unmerge(_:)`` takes.
    public var id: Int
    /// The contact that holds everything now.
    public var into: String
    /// The contacts merged into it and deleted, in the order given.
    public var merged: [String]
    /// When the merge was made.
    public var at: Date
}
