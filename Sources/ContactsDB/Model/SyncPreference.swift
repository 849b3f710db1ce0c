import Foundation

/// Which side's version wins a property both sides changed.
public enum SyncPreference: String, CaseIterable, Hashable, Sendable {
    case server, local
}
