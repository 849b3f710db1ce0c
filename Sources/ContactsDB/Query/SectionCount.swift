/// One section of the index: its label and how many contacts it holds.
public struct SectionCount: Hashable, Sendable, Codable {
    /// The section's label ("A", "Ж", "#"), as ``Contact/sectionKey`` holds it.
    public var sectionKey: String
    /// How many contacts the section holds.
    public var count: Int
}
