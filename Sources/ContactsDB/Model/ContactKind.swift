import Foundation

/// Whether a card is a person or an organization (vCard 4.0 `KIND`).
public enum ContactKind: String, CaseIterable, Hashable, Sendable {
    case individual, organization
}
