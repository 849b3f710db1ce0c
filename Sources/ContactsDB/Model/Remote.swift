import Foundation

/// The CardDAV address book one book of a database syncs with
/// (docs/sync.md, "Several address books, each with its own server").
public struct Remote: Hashable, Sendable {
    /// The name of its book.
    public var name: String
    /// The address book collection, as discovery found it.
    public var url: String
    /// The user to sign in as; nil takes `~/.netrc`'s login, or an empty
    /// name with the other password sources.
    public var username: String?
    /// Where the password comes from; the password itself is never stored.
    public var password: PasswordSource
    /// How the remote's address book keeps groups; nil until the first
    /// sync finds it (a group card there: cards; else categories).
    public var groups: GroupConvention?
    /// What a sync does with a property both sides changed.
    public var conflicts: ConflictHandling
    /// When its last sync ended, if one did.
    public var lastSyncedAt: Date?

    /// A remote to add; discovery fills in the address book's URL.
    public init(name: String, url: String, username: String? = nil, password: PasswordSource = .netrc,
                groups: GroupConvention? = nil, conflicts: ConflictHandling = .merge) {
        self.name = name
        self.conflicts = conflicts
        self.url = url
        self.username = username
        self.password = password
        self.groups = groups
    }

    /// How long one request to a remote may take by default, from its
    /// start to its answer's last byte; 30 s without a byte ends it sooner.
    public static let defaultTimeout: Double = 120
}
