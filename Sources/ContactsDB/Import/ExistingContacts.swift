import Foundation

/// What an import does with a contact whose id the database already
/// holds.
public enum ExistingContacts: String, Sendable, CaseIterable {
    /// The import fails on the first such contact and writes nothing.
    case fail
    /// The card as read replaces the stored contact; one equal to it is not
    /// written, so its revision does not move.
    case update
    /// The stored contact stays as it is.
    case skip
}
