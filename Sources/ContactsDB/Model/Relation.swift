import Foundation

/// A related person: spouse, child, parent, assistant, … or a custom label.
public struct Relation: Hashable, Sendable {
    /// The relation: spouse, child, parent, assistant, … or a custom label.
    public var type: String
    /// The related person's name, as written.
    public var name: String

    /// A relation by label and name.
    public init(type: String, name: String) {
        self.type = type
        self.name = name
    }
}
