import Foundation

/// The CardDAV address book a database syncs with (SPEC §CardDAV sync).
public struct Remote: Hashable, Sendable {
    public var name: String
    /// The address book collection, as discovery found it.
    public var url: String
    public var username: String?
    /// Where the password comes from; the password itself is never stored.
    public var password: PasswordSource

    public init(name: String, url: String, username: String? = nil, password: PasswordSource = .netrc) {
        self.name = name
        self.url = url
        self.username = username
        self.password = password
    }

    /// How long one request to a remote may take by default, from its
    /// start to its answer's last byte; 30 s without a byte ends it sooner.
    public static let defaultTimeout: Double = 120
}

/// Where a remote's password is read at each sync.
public enum PasswordSource: Hashable, Sendable {
    /// The value of this environment variable.
    case environment(String)
    /// The content of this file, less one trailing newline.
    case file(String)
    /// `~/.netrc`'s entry for the host; without one, no credentials.
    case netrc
}

/// Which side's version wins a property both sides changed.
public enum SyncPreference: String, CaseIterable, Hashable, Sendable {
    case server, local
}

/// What a sync did, or would do (`--dry-run`), on one side.
public struct SyncCounts: Hashable, Sendable, Codable {
    public var new = 0
    public var changed = 0
    public var deleted = 0

    public init() {}
}

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

    public init() {}
}

/// A version that lost when both sides changed a contact: the properties
/// both changed (the other side's values were kept), or an edit that beat
/// a deletion.
public struct SyncConflict: Hashable, Sendable {
    public var id: Int
    public var contactId: String
    public var detectedAt: Date
    /// The side whose version was kept.
    public var kept: SyncPreference
    /// The properties both sides changed (JSON names); empty when an edit
    /// beat a deletion.
    public var properties: [String]
    /// The losing side's whole contact; nil when the losing side deleted it.
    public var losing: ContactDraft?

    public init(id: Int = 0, contactId: String, detectedAt: Date, kept: SyncPreference, properties: [String],
                losing: ContactDraft?) {
        self.id = id
        self.contactId = contactId
        self.detectedAt = detectedAt
        self.kept = kept
        self.properties = properties
        self.losing = losing
    }
}
