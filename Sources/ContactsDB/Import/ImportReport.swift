import Foundation

/// What an import did.
public struct ImportReport: Sendable {
    /// Contacts added.
    public var imported = 0
    /// Existing contacts replaced by a different card (``ExistingContacts/update``).
    public var updated = 0
    /// Existing contacts equal to their card, left unwritten (``ExistingContacts/update``).
    public var unchanged = 0
    /// Existing contacts left as they were (``ExistingContacts/skip``).
    public var skippedExisting = 0
    /// Of the updated, unchanged and skipped, those whose records had no
    /// id (Google's and Outlook's CSV, a card without a UID), found as the
    /// stored contact that ``ContactStore/duplicates(inBooks:)`` would
    /// call the same person for certain.
    public var matchedWithoutID = 0
    /// Group cards taken in as groups.
    public var groups = 0
    /// Records skipped (only when skipping invalid ones), each with where
    /// it was and why.
    public var skipped: [String] = []
    /// vCard properties the model does not hold, kept verbatim as extra
    /// properties, and CSV columns no field holds, kept as `X-` properties,
    /// with how often each appeared.
    public var extraProperties: [String: Int] = [:]
    /// What was kept that typed input would refuse.
    public var unusual = UnusualValues()
    /// Where the import's time went.
    public var phases = ImportPhases()
}
