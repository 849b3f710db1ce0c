/// Contacts that are probably one person, and why (SPEC §Duplicates).
public struct DuplicateSet: Hashable, Sendable {
    public enum Confidence: String, Sendable {
        /// They share a phone, an email or a messenger handle, and their
        /// names do not differ.
        case certain
        /// The same name and the same birthday, company or city; or a
        /// shared phone, email or handle under different names.
        case likely
    }

    /// The contacts' ids, in the default sort.
    public var ids: [String]
    /// `certain` when the set's certain pairs alone connect it.
    public var confidence: Confidence
    /// What they share: `phone +79123456789`, `email anna@example.com`,
    /// `telegram anna`, `name`, `birthday`, `company`, `city`.
    public var reasons: [String]

    public init(ids: [String], confidence: Confidence, reasons: [String]) {
        self.ids = ids
        self.confidence = confidence
        self.reasons = reasons
    }
}
