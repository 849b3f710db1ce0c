import Foundation

/// What ``ContactStore/seed(_:source:intoBook:progress:)`` did.
public enum SeedOutcome: Hashable, Sendable {
    /// The seed was imported now, as recorded.
    case imported(SeedImport)
    /// This seed (same checksum) was imported before; nothing was written.
    case alreadyImported(SeedImport)
}
