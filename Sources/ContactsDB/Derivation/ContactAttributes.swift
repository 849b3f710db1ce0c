/// What a contact has, as the bit set stored in `contact.attributes`:
/// the bit of each ``ContactAttribute``, and one the queries read for the
/// card's lists.
public struct ContactAttributes: OptionSet, Hashable, Sendable {
    /// The bits as stored.
    public let rawValue: Int
    /// The set these bits make.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Has a phone.
    public static let phone = ContactAttribute.phone.bit
    /// Has an email.
    public static let email = ContactAttribute.email.bit
    /// Has an address.
    public static let address = ContactAttribute.address.bit
    /// Has a Telegram handle.
    public static let telegram = ContactAttribute.telegram.bit
    /// Has a WhatsApp handle.
    public static let whatsapp = ContactAttribute.whatsapp.bit
    /// Has a Viber handle.
    public static let viber = ContactAttribute.viber.bit
    /// Has a Signal handle.
    public static let signal = ContactAttribute.signal.bit
    /// Has a Threema handle.
    public static let threema = ContactAttribute.threema.bit
    /// Has a photo, kept in its own table (Schema/0008).
    public static let photo = ContactAttribute.photo.bit
    /// Has a birthday (Schema/0010).
    public static let birthday = ContactAttribute.birthday.bit

    /// Holds dates, URLs, relations, social profiles or extra properties;
    /// no filter of its own, so no ``ContactAttribute``.
    static let cardLists = ContactAttributes(rawValue: 1 << 8)

    /// Any messenger service.
    public static let messengers = ContactAttributes(ContactAttribute.allCases.filter(\.isMessenger).map(\.bit))

    /// Each attribute by the name the CLI and the web app use (`phone`,
    /// `telegram`, …), in ``ContactAttribute``'s order.
    public static let named: [(name: String, attribute: ContactAttributes)] =
        ContactAttribute.allCases.map { ($0.rawValue, $0.bit) }

    init(_ draft: ContactDraft) {
        var attributes: ContactAttributes = []
        for attribute in ContactAttribute.allCases where attribute.isHeld(by: draft) { attributes.insert(attribute.bit) }
        if draft.details.hasLists { attributes.insert(.cardLists) }
        self = attributes
    }
}
