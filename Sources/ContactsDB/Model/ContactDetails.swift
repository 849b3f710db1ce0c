import Foundation

/// Everything a phone's or a mail client's address book holds beyond the
/// names, phones, emails, addresses and messengers (docs/vcard.md, "vCard
/// and CSV").
///
/// ``Contact`` and ``ContactDraft`` each hold one and expose its fields as
/// their own (`contact.birthday`), so the list of fields lives here once.
public struct ContactDetails: Hashable, Sendable {
    /// A person or an organization (vCard 4.0 KIND).
    public var kind: ContactKind = .individual
    /// An honorific before the name ("Dr.").
    public var namePrefix: String?
    /// The middle name or names.
    public var middleName: String?
    /// A suffix after the name ("Jr.", "PhD").
    public var nameSuffix: String?
    /// How the given name is pronounced (furigana, for instance).
    public var phoneticFirstName: String?
    /// How the middle name is pronounced.
    public var phoneticMiddleName: String?
    /// How the family name is pronounced.
    public var phoneticLastName: String?
    /// One nickname, or several separated by commas as vCard lists them.
    public var nickname: String?
    /// The formatted name as the card wrote it, kept only where it differs
    /// from the derived `displayName`.
    public var formattedName: String?
    /// The organization's units below the company, separated by `;`.
    public var department: String?
    /// The person's title in the organization.
    public var jobTitle: String?
    /// The person's function in the organization, as vCard ROLE holds it.
    public var role: String?
    /// `YYYY-MM-DD`, or `--MM-DD` when the year is unknown.
    public var birthday: String?
    /// Anniversaries and other dates, each `YYYY-MM-DD` or `--MM-DD`.
    public var dates: [LabeledValue] = []
    /// Free text, newlines kept; up to 64 KiB.
    public var note: String?
    /// Web pages, each with a label.
    public var urls: [LabeledValue] = []
    /// Related people, each with a label.
    public var relations: [Relation] = []
    /// Profiles on social services.
    public var socialProfiles: [SocialProfile] = []
    /// The card's properties the model does not hold, each an unfolded
    /// content line as read (`item3.X-CUSTOM;TYPE=foo:value`), written back
    /// on export.
    public var extra: [String] = []
    /// The contact's photo as given. Nil in contacts read by a list query,
    /// which reads no image bytes: see ``Contact/hasPhoto``.
    public var photo: ContactPhoto?

    /// Details with every field empty.
    public init() {}

    /// Whether any list of ``CardList`` is non-empty: the reader skips
    /// their tables for contacts that hold none, and the writer, the
    /// validator and the formats skip the lists.
    var hasLists: Bool {
        !dates.isEmpty || !urls.isEmpty || !relations.isEmpty || !socialProfiles.isEmpty || !extra.isEmpty
    }
}
