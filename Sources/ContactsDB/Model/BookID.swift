/// An address book's row id, which every contact, group, deleted contact
/// and sync record names its book by. A deleted book's id is never given
/// to another book.
public struct BookID: Hashable, Sendable, RawRepresentable {
    /// The id as `book.id` stores it.
    public let rawValue: Int64

    /// The book of this row id.
    public init(rawValue: Int64) { self.rawValue = rawValue }
}
