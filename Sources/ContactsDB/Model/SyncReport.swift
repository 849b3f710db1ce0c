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
    /// Contacts both sides changed that a `keep-both` remote kept twice:
    /// the server's version, and the local one as a contact of its own.
    public var keptBoth = 0
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
    /// What this sync changed that the server made it change, each said
    /// once: a group card given a UID of its own, as the server holds
    /// another card of its UID.
    public var notices: [String] = []

    /// An empty report, counted up as the sync goes.
    public init() {}
}
