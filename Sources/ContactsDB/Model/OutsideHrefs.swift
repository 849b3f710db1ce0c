import Foundation

/// Hrefs outside the address book: how many, and the first few by which
/// a person can tell what the server does.
public struct OutsideHrefs: Hashable, Sendable {
    /// The address book's path they lie outside.
    public var collection = ""
    /// How many hrefs lay outside, however many are named.
    public private(set) var count = 0
    /// The first ``shown`` of them, in the order met.
    public private(set) var first: [String] = []
    /// How many are named.
    public static let shown = 3

    /// None yet, in an address book not yet named.
    public init() {}

    /// Counts an href outside, keeping it among the first ``shown``.
    public mutating func append(_ href: String) {
        count += 1
        if first.count < Self.shown { first.append(href) }
    }
}
