/// Contacts that are probably one person, and why (docs/cli.md, "Duplicates
/// and merging").
public struct DuplicateSet: Hashable, Sendable {
    /// How sure the engine is that the contacts are one person.
    public enum Confidence: String, Sendable {
        /// They share a phone, an email or a messenger handle, and their
        /// names do not differ.
        case certain
        /// The same name and the same birthday, company or city; or a
        /// shared phone, email or handle under different names.
        case likely
    }

    /// What to do with a set (docs/cli.md, "One person across books: links").
    public enum Action: String, Sendable {
        /// Its contacts are all in different books: one card each in
        /// several accounts, to show as one person and keep.
        case link
        /// Two or more of its contacts are in one book: each book's cards
        /// to merge into one, after which the rest are a set to link.
        case merge
    }

    /// The contacts' ids, in the default sort.
    public var ids: [String]
    /// `certain` when the set's certain pairs alone connect it.
    public var confidence: Confidence
    /// What they share: `phone +79123456789`, `email anna@example.com`,
    /// `telegram anna`, `name`, `birthday`, `company`, `city`.
    public var reasons: [String]
    /// `link` when its contacts are all in different books, else `merge`.
    public var action: Action

    /// A set as the duplicate finder reports it.
    public init(ids: [String], confidence: Confidence, reasons: [String], action: Action = .merge) {
        self.ids = ids
        self.confidence = confidence
        self.reasons = reasons
        self.action = action
    }
}
