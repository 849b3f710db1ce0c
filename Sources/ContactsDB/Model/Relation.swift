import Foundation

/// A related person: spouse, child, parent, assistant, … or a custom label.
public struct Relation: Hashable, Sendable {
    public var type: String
    public var name: String

    public init(type: String, name: String) {
        self.type = type
        self.name = name
    }
}
