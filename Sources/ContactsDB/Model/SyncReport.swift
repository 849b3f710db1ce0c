import Foundation

/// What a sync did: cards pulled into the database, cards pushed to the
/// server, and conflicts it recorded.
public struct SyncReport: Hashable, Sendable {
    /// Cards taken in from the server: new, changed and deleted here.
    public var pulled = SyncCounts()
    /// Cards sent to the server: new, changed and deleted there.
    public var pushed = SyncCounts()
    /// Conflicts this sync recorded (``ContactStore/conflicts()``).
    public var conflicts = 0
    /// Cards the server holds that could not be read or stored, each with
    /// where and why; they are tried again at the next sync.
    public var skipped: [String] = []
    /// Hrefs the server named outside the address book, which are never
    /// asked for or written to: reported as one line, however many.
    public var outside = OutsideHrefs()
    /// The convention a first sync found the address book holding where
    /// it differs from the one `remote add --groups` named: the one its
    /// groups follow from now on.
    public var groupsFollowed: GroupConventionChange?

    /// An empty report, counted up as the sync goes.
    public init() {}
}

/// A remote's groups following what its address book holds rather than
/// what it was told.
public struct GroupConventionChange: Hashable, Sendable {
    /// What `remote add --groups` named.
    public var named: GroupConvention
    /// What the address book holds, now the remote's.
    public var found: GroupConvention

    /// A change from the convention named to the one found.
    public init(named: GroupConvention, found: GroupConvention) {
        (self.named, self.found) = (named, found)
    }
}

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
