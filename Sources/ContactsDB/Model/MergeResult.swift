/// What ``ContactStore/merge(_:into:dryRun:)`` made.
public struct MergeResult: Sendable {
    /// A value the survivor did not take because it holds a different one;
    /// the merge record keeps it.
    public struct KeptApart: Hashable, Sendable {
        /// The contact that held it.
        public var id: String
        /// The field, by its JSON name.
        public var field: String
        /// The value as the merged contact held it.
        public var value: String
    }

    /// The merge record's id; nil for a dry run, which writes nothing.
    public var mergeID: Int?
    /// The survivor as the merge left it.
    public var contact: Contact
    /// The contacts merged into it, in the order given.
    public var merged: [String]
    /// Values the survivor did not take, kept in the merge record.
    public var keptApart: [KeptApart]
}
