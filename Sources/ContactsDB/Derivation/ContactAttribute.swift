/// One thing a query can require a contact to have (`query --has`, the
/// web app's filters): its name, its bit in `contact.attributes` and
/// what of a contact holds it.
///
/// The one list of them: ``ContactAttributes/named``, the bits a contact
/// is stored with, `doctor`'s check of those bits, the command line's
/// `--has` and the tests' reference model all follow it.
///
/// A new case needs a bit of its own and a migration that rewrites the
/// person-keys SQL: the view `personAttributesOf`
/// (`Schema/0021_person_keys.sql`) ORs each bit by hand, up to `1 << 10`,
/// so a later bit would drop out of `query --unified --has`.
/// `ContactAttributeTests` fails until the SQL holds every bit.
public enum ContactAttribute: String, CaseIterable, Hashable, Sendable {
    case phone, email, address, telegram, whatsapp, viber, signal, threema, photo, birthday

    /// What of a contact holds an attribute.
    public enum Holder: Hashable, Sendable {
        /// At least one phone, email or address.
        case phones, emails, addresses
        /// A handle of this service.
        case messenger(MessengerService)
        /// A photo (Schema/0008), a birthday (Schema/0010).
        case photo, birthday
    }

    /// Its bit in `contact.attributes`: stored in every database, so
    /// never changed. `1 << 8` is ``ContactAttributes``' card lists.
    public var bit: ContactAttributes {
        let shift = switch self {
        case .phone: 0
        case .email: 1
        case .address: 2
        case .telegram: 3
        case .whatsapp: 4
        case .viber: 5
        case .signal: 6
        case .threema: 7
        case .photo: 9
        case .birthday: 10
        }
        return ContactAttributes(rawValue: 1 << shift)
    }

    /// What of a contact holds it.
    public var holder: Holder {
        switch self {
        case .phone: .phones
        case .email: .emails
        case .address: .addresses
        case .telegram: .messenger(.telegram)
        case .whatsapp: .messenger(.whatsapp)
        case .viber: .messenger(.viber)
        case .signal: .messenger(.signal)
        case .threema: .messenger(.threema)
        case .photo: .photo
        case .birthday: .birthday
        }
    }

    /// Whether it is a messenger service's.
    public var isMessenger: Bool {
        if case .messenger = holder { true } else { false }
    }

    /// Whether `draft` has it. A messenger's service is matched as stored:
    /// typed input and known services read from a card are lower case.
    func isHeld(by draft: ContactDraft) -> Bool {
        switch holder {
        case .phones: !draft.phones.isEmpty
        case .emails: !draft.emails.isEmpty
        case .addresses: !draft.addresses.isEmpty
        case .messenger(let service): draft.messengers.contains { $0.service == service.rawValue }
        case .photo: draft.photo != nil
        case .birthday: draft.birthday != nil
        }
    }
}
