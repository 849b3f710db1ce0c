import Foundation

/// What a caller writes: a contact without its derived fields.
@dynamicMemberLookup
public struct ContactDraft: Hashable, Sendable {
    /// A stable id; a new contact without one gets a UUID.
    public var id: String?
    /// The card's UID where it differs from the id: the same card may be in
    /// two address books, while an id is unique in the database. Set when
    /// a card is taken in under another id, and written back as the card's
    /// UID; nil means the id is the UID.
    public var uid: String?
    /// The given name.
    public var firstName: String?
    /// The family name.
    public var lastName: String?
    /// The organization; typed input needs it or one of the names to be
    /// non-empty.
    public var company: String?
    /// A whole number 0…999, where known.
    public var age: Int?
    /// Phone numbers; an update replaces the list whole.
    public var phones: [Phone]
    /// Email addresses; an update replaces the list whole.
    public var emails: [Email]
    /// Postal addresses; an update replaces the list whole.
    public var addresses: [Address]
    /// Messenger handles; an update replaces the list whole.
    public var messengers: [Messenger]
    /// A new favorite goes to the end of the favorites; one that stays a
    /// favorite keeps its place.
    public var isFavorite: Bool
    /// Group names; groups that do not exist yet are created.
    public var groups: [String]
    /// Everything else the card holds, also reachable as the draft's own
    /// fields (`draft.birthday = "1990-04-12"`).
    public var details: ContactDetails

    /// A draft with the fields given; the rest are empty.
    public init(
        id: String? = nil, firstName: String? = nil, lastName: String? = nil,
        company: String? = nil, age: Int? = nil, phones: [Phone] = [], emails: [Email] = [],
        addresses: [Address] = [], messengers: [Messenger] = [], isFavorite: Bool = false, groups: [String] = [],
        details: ContactDetails = ContactDetails()
    ) {
        self.id = id
        self.firstName = firstName
        self.lastName = lastName
        self.company = company
        self.age = age
        self.phones = phones
        self.emails = emails
        self.addresses = addresses
        self.messengers = messengers
        self.isFavorite = isFavorite
        self.groups = groups
        self.details = details
    }

    /// Reads and writes a field of ``details`` as the draft's own.
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<ContactDetails, T>) -> T {
        get { details[keyPath: keyPath] }
        // In place: a get and a set would copy the value on every change,
        // and a card's `extra` appended line by line in quadratic time.
        _modify { yield &details[keyPath: keyPath] }
    }
}
