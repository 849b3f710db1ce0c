/// A group and how many contacts it holds.
public struct ContactGroup: Hashable, Sendable, Codable {
    /// The group's name, unique in its address book.
    public var name: String
    /// The UID its group card has, or was given here.
    public var uid: String
    /// How many contacts are in it.
    public var memberCount: Int
    /// The name of the address book it is in.
    public var book: String
}
