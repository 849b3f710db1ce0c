import Foundation

/// A merge of duplicates, kept until it is taken back
/// (``ContactStore/unmerge(_:)``).
public struct MergeRecord: Hashable, Sendable {
    public var id: Int
    /// The contact that holds everything now.
    public var into: String
    /// The contacts merged into it and deleted, in the order given.
    public var merged: [String]
    public var at: Date
}
