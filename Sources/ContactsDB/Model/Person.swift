import Foundation

/// One row of the unified list (docs/cli.md, "One person across books:
/// links"): a contact linked to none, or a linked set of contacts shown as
/// one.
public struct Person: Hashable, Sendable {
    /// The ids of its cards, its first in the default order first.
    public var ids: [String]
    /// Its first card in the default order, whose name, sort key and
    /// section the row has, holding the phones, emails and messengers of
    /// all its cards (each once).
    public var contact: Contact

    /// A row from its cards' ids and the contact that stands for them.
    public init(ids: [String], contact: Contact) {
        self.ids = ids
        self.contact = contact
    }

    /// Adds another card's phones (by E.164 form, else digits), emails (in
    /// any case) and messenger handles (in any case) that it lacks.
    mutating func takeLists(of card: Contact) {
        func phoneKey(_ phone: Phone) -> String { phone.e164 ?? phone.value.filter(\.isNumber) }
        var phones = Set(contact.phones.map(phoneKey))
        for phone in card.phones where phones.insert(phoneKey(phone)).inserted { contact.phones.append(phone) }
        var emails = Set(contact.emails.map { $0.value.lowercased() })
        for email in card.emails where emails.insert(email.value.lowercased()).inserted { contact.emails.append(email) }
        var handles = Set(contact.messengers.map { [$0.service.lowercased(), $0.handle.lowercased()] })
        for messenger in card.messengers where handles.insert([messenger.service.lowercased(), messenger.handle.lowercased()]).inserted {
            contact.messengers.append(messenger)
        }
    }
}
