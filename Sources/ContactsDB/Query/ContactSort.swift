/// A sort key and its direction. The default is the sectioned order:
/// section index, then sortName, then id.
public struct ContactSort: Hashable, Sendable {
    /// What to sort on: `name` is the sectioned order; the others put
    /// contacts lacking the field last and break ties by sortName, then id.
    public enum Key: String, CaseIterable, Sendable {
        /// The sectioned order: section index, then sortName, then id.
        case name
        /// The first name.
        case firstName = "first-name"
        /// The last name.
        case lastName = "last-name"
        /// The company.
        case company
    }

    /// The field sorted on.
    public var key: Key = .name
    /// Whether the order runs backwards; `name` descending is the sectioned
    /// order exactly reversed.
    public var descending = false

    /// A sort by `key`, ascending unless told otherwise.
    public init(key: Key = .name, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }
}
