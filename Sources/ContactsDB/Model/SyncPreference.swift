import Foundation

/// Which side's version wins a property both sides changed: the server's
/// or the local one; the other is kept as a ``SyncConflict``.
public enum SyncPreference: String, CaseIterable, Hashable, Sendable {
    case server, local
}
