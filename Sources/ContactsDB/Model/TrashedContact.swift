import Foundation

/// A deleted contact the trash keeps (``ContactStore/trash(inBooks:)``),
/// as `trash` lists it.
public struct TrashedContact: Hashable, Sendable {
    /// The id it had, and gets back on a restore.
    public var id: String
    /// Its display name.
    public var name: String
    /// The book it was in (its name then, if the book is gone since).
    public var book: String
    /// When it was deleted.
    public var deletedAt: Date
    /// What deleted it: `delete`, `web` or `sync:REMOTE`.
    public var deletedBy: ChangeSource
}

/// What ``ContactStore/restore(ids:asNew:)`` did.
public struct RestoreResult: Hashable, Sendable {
    /// The id each contact came back under, in the order given: its own,
    /// or a new one for a restore as new.
    public var ids: [String]
    /// The books that were gone, whose contacts went into the default
    /// book instead.
    public var goneBooks: [String]
    /// The default book they went into, when any book was gone.
    public var defaultBook: String?
}
