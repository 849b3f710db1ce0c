import Foundation

/// A stored contact with all its children, as the engine wrote it.
///
/// The derived fields (`displayName`, `sortName`, `sectionKey`, `sortIndex`,
/// `createdAt`, `updatedAt`, `revision`) are computed by the engine on every
/// write.
/// To change a contact, edit its ``ContactDraft`` (``draft``) and hand it to
/// ``ContactStore/update(id:ifRevision:_:)``.
@dynamicMemberLookup
public struct Contact: Identifiable, Hashable, Sendable {
    /// Unique in the database.
    public var id: String
    /// The given name.
    public var firstName: String?
    /// The family name.
    public var lastName: String?
    /// The organization; the display and sort name when both names are empty.
    public var company: String?
    /// A whole number 0…999, where known.
    public var age: Int?
    /// Phone numbers in the card's order.
    public var phones: [Phone]
    /// Email addresses in the card's order.
    public var emails: [Email]
    /// Postal addresses in the card's order.
    public var addresses: [Address]
    /// Messenger handles in the card's order.
    public var messengers: [Messenger]
    /// Whether the contact is among the favorites (see
    /// ``ContactStore/favorites()`` for their order).
    public var isFavorite: Bool
    /// The names of the groups the contact belongs to, in name order.
    public var groups: [String]
    /// Everything else the card holds, also reachable as the contact's own
    /// fields (`contact.birthday`).
    public var details: ContactDetails

    /// "First Last", family name first without a space for Hangul, Han and
    /// kana names, the company when both names are empty.
    public var displayName: String
    /// What the default order sorts on: last name, then first name, else the
    /// company.
    public var sortName: String
    /// The section-index label the contact files under ("A", "Ж", "ㄱ"), "#"
    /// for anything not a letter of a known alphabet.
    public var sectionKey: String
    /// The position of the contact's section in the index, so the sectioned
    /// list reads in index order with "#" last.
    public var sortIndex: Int
    /// When the contact was first written.
    public var createdAt: Date
    /// When the contact was last written.
    public var updatedAt: Date
    /// The database's change counter at the contact's last change; pass it
    /// back as `ifRevision` to refuse overwriting a change not yet seen.
    public var revision: Int
    /// Whether the contact has a photo, known without reading it: list
    /// queries leave `photo` nil and set this.
    public var hasPhoto: Bool = false
    /// The name of the address book it is in.
    public var book: String = ""
    /// Its card's UID where that differs from the id (``ContactDraft/uid``).
    public var uid: String?

    /// The UID its card is written with.
    public var cardUID: String { uid ?? id }

    /// The writable part of this contact.
    public var draft: ContactDraft {
        var draft = ContactDraft(
            id: id, firstName: firstName, lastName: lastName, company: company, age: age,
            phones: phones, emails: emails, addresses: addresses, messengers: messengers,
            isFavorite: isFavorite, groups: groups, details: details)
        draft.uid = uid
        return draft
    }

    /// Reads and writes a field of ``details`` as the contact's own.
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<ContactDetails, T>) -> T {
        get { details[keyPath: keyPath] }
        // In place: a get and a set would copy the value on every change,
        // and a card's `extra` appended line by line in quadratic time.
        _modify { yield &details[keyPath: keyPath] }
    }
}
