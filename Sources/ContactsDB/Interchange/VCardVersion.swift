import Foundation

/// The vCard versions `export` writes.
public enum VCardVersion: String, CaseIterable, Sendable {
    /// vCard 3.0 (RFC 2426), with Apple's forms where it has none.
    case v3 = "3.0"
    /// vCard 4.0 (RFC 6350).
    case v4 = "4.0"
}
