/// What a sync does with a property both sides changed, per remote
/// (`remote add … --conflicts`).
public enum ConflictHandling: String, Hashable, Sendable, CaseIterable {
    /// Property by property: the preferred side's value, the other side's
    /// whole contact kept as a conflict (`conflicts`).
    case merge
    /// The server's version stays the contact, and the local version
    /// becomes a second contact in the same book, pushed as a card of its
    /// own, which `duplicates` lists with the first.
    case keepBoth = "keep-both"
}
