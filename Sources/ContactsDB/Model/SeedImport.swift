import Foundation

/// A seed file imported into a database, as recorded in `seedImport`.
public struct SeedImport: Hashable, Sendable {
    /// SHA-256 of the file's bytes: the seed's identity.
    public var checksum: String
    /// Where it came from: `bundled` or the file name given.
    public var source: String
    public var contactCount: Int
    public var importedAt: Date
}

/// What ``ContactStore/seed(_:source:progress:)`` did.
public enum SeedOutcome: Hashable, Sendable {
    case imported(SeedImport)
    /// This seed (same checksum) was imported before; nothing was written.
    case alreadyImported(SeedImport)
}
