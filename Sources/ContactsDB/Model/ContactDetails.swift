import Foundation

/// Everything a phone's or a mail client's address book holds beyond the
/// names, phones, emails, addresses and messengers (SPEC §The whole card).
///
/// ``Contact`` and ``ContactDraft`` each hold one and expose its fields as
/// their own (`contact.birthday`), so the list of fields lives here once.
public struct ContactDetails: Hashable, Sendable {
    public var kind: ContactKind = .individual
    public var namePrefix: String?
    public var middleName: String?
    public var nameSuffix: String?
    public var phoneticFirstName: String?
    public var phoneticMiddleName: String?
    public var phoneticLastName: String?
    /// One nickname, or several separated by commas as vCard lists them.
    public var nickname: String?
    /// The formatted name as the card wrote it, kept only where it differs
    /// from the derived `displayName`.
    public var formattedName: String?
    /// The organization's units below the company, separated by `;`.
    public var department: String?
    public var jobTitle: String?
    public var role: String?
    /// `YYYY-MM-DD`, or `--MM-DD` when the year is unknown.
    public var birthday: String?
    /// Anniversaries and other dates, each `YYYY-MM-DD` or `--MM-DD`.
    public var dates: [LabeledValue] = []
    /// Free text, newlines kept; up to 64 KiB.
    public var note: String?
    public var urls: [LabeledValue] = []
    public var relations: [Relation] = []
    public var socialProfiles: [SocialProfile] = []
    /// The card's properties the model does not hold, each an unfolded
    /// content line as read (`item3.X-CUSTOM;TYPE=foo:value`), written back
    /// on export.
    public var extra: [String] = []
    /// The contact's photo as given. Nil in contacts read by a list query,
    /// which reads no image bytes: see ``Contact/hasPhoto``.
    public var photo: ContactPhoto?

    public init() {}

    /// Whether any list below is non-empty: the reader skips their tables
    /// for contacts that hold none.
    var hasLists: Bool {
        !dates.isEmpty || !urls.isEmpty || !relations.isEmpty || !socialProfiles.isEmpty || !extra.isEmpty
    }
}

/// A contact's photo: the original bytes as given, and their type.
public struct ContactPhoto: Hashable, Sendable {
    /// `image/jpeg`, `image/png`, … as found by content where it can be,
    /// else as the card declared it.
    public var mediaType: String
    public var data: Data

    public init(mediaType: String, data: Data) {
        self.mediaType = mediaType
        self.data = data
    }
}

/// A photo's thumbnail as stored: a square of at most
/// ``PhotoImage/thumbnailSide`` pixels, `image/jpeg` or `image/webp`. The
/// same two fields as a photo, under the name that says which it is.
public typealias ContactThumbnail = ContactPhoto

public enum ContactKind: String, CaseIterable, Hashable, Sendable {
    case individual, organization
}

/// A labelled value: a date (`anniversary` or a custom label) or a URL.
public struct LabeledValue: Hashable, Sendable {
    public var type: String
    public var value: String
    /// The vCard parameters the model does not hold (`X-EVOLUTION-UI-SLOT=1`,
    /// `PREF=2`), as written, `;`-separated; written back on export.
    public var parameters: String?

    public init(type: String, value: String, parameters: String? = nil) {
        self.type = type
        self.value = value
        self.parameters = parameters
    }
}

/// A related person: spouse, child, parent, assistant, … or a custom label.
public struct Relation: Hashable, Sendable {
    public var type: String
    public var name: String

    public init(type: String, name: String) {
        self.type = type
        self.name = name
    }
}

/// A profile on a social service, by handle, URL or both.
public struct SocialProfile: Hashable, Sendable {
    public var service: String
    public var handle: String
    public var url: String

    public init(service: String, handle: String = "", url: String = "") {
        self.service = service
        self.handle = handle
        self.url = url
    }
}
