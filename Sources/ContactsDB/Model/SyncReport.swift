import Foundation

/// What a sync did: cards pulled into the database, cards pushed to the
/// server, and conflicts it recorded.
public struct SyncReport: Hashable, Sendable {
    public var pulled = SyncCounts()
    public var pushed = SyncCounts()
    /// Conflicts this sync recorded (``ContactStore/conflicts()``).
    public var conflicts = 0
    /// Cards the server holds that could not be read or stored, each with
    /// where and why; they are tried again at the next sync.
    public var skipped: [String] = []
    /// Hrefs the server named outside the address book, which are never
    /// asked for or written to: reported as one line, however many.
    public var outside = OutsideHrefs()

    public init() {}
}

/// Hrefs outside the address book: how many, and the first few by which
/// a person can tell what the server does.
public struct OutsideHrefs: Hashable, Sendable {
    /// The address book's path they lie outside.
    public var collection = ""
    public private(set) var count = 0
    public private(set) var first: [String] = []
    /// How many are named.
    public static let shown = 3

    public init() {}

    public mutating func append(_ href: String) {
        count += 1
        if first.count < Self.shown { first.append(href) }
    }
}
