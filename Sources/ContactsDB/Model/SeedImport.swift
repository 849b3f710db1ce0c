import Foundation

/// A seed file imported into a database, as recorded in `seedImport`.
public struct SeedImport: Hashable, Sendable {
    /// SHA-256 of the file's bytes: the seed's identity.
    public var checksum: String
    /// Where it came from: `bundled` or the file name given.
    public var source: String
    /// How many contacts the seed held.
    public var contactCount: Int
    /// When it was imported.
    public var importedAt: Date
}
