import Foundation

/// One version of a contact its history keeps
/// (``ContactStore/history(id:)``).
public struct ContactVersion: Hashable, Sendable {
    /// The change counter of the write that made this version.
    public var revision: Int
    /// When it was written.
    public var at: Date
    /// What wrote it; nil where no write recorded it (a favorite or group
    /// change, or a version older than the history).
    public var by: ChangeSource?
    /// The JSON keys of the fields it changed from the version before
    /// (every field it holds, for the version that added the contact).
    public var fields: [String]
}
