import Foundation

/// A stored contact with all its children, as the engine wrote it.
///
/// The derived fields (`displayName`, `sortName`, `sectionKey`, `sortIndex`,
/// `createdAt`, `updatedAt`) are computed by the engine on every write.
/// To change a contact, edit its ``ContactDraft`` (``draft``) and hand it to
/// ``ContactStore/update(id:_:)``.
public struct Contact: Identifiable, Hashable, Sendable {
    public var id: String
    public var firstName: String?
    public var lastName: String?
    public var company: String?
    public var age: Int?
    public var phones: [Phone]
    public var emails: [Email]
    public var addresses: [Address]
    public var messengers: [Messenger]

    public var displayName: String
    public var sortName: String
    public var sectionKey: String
    public var sortIndex: Int
    public var createdAt: Date
    public var updatedAt: Date

    /// The writable part of this contact.
    public var draft: ContactDraft {
        ContactDraft(
            id: id, firstName: firstName, lastName: lastName, company: company, age: age,
            phones: phones, emails: emails, addresses: addresses, messengers: messengers)
    }
}

/// What a caller writes: a contact without its derived fields.
public struct ContactDraft: Hashable, Sendable {
    /// A stable id; a new contact without one gets a UUID.
    public var id: String?
    public var firstName: String?
    public var lastName: String?
    public var company: String?
    public var age: Int?
    public var phones: [Phone]
    public var emails: [Email]
    public var addresses: [Address]
    public var messengers: [Messenger]

    public init(
        id: String? = nil, firstName: String? = nil, lastName: String? = nil,
        company: String? = nil, age: Int? = nil, phones: [Phone] = [], emails: [Email] = [],
        addresses: [Address] = [], messengers: [Messenger] = []
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
    }
}
