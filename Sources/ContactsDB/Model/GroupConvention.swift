/// The two ways address books keep groups (docs/cli.md, "Favorites and
/// groups").
public enum GroupConvention: String, CaseIterable, Sendable {
    /// `CATEGORIES` on each member's card (Google, Android, Thunderbird,
    /// khard).
    case categories
    /// A card of its own per group: vCard 4.0 `KIND:group` with `MEMBER`
    /// lines, or Apple's 3.0 form (iCloud, macOS, Nextcloud, Fastmail).
    case cards
}
