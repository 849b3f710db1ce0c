/// The labels the engine knows; any other non-empty label is kept as given.
public enum WellKnownLabel: String, CaseIterable, Sendable {
    case mobile, home, work, main, other
}

/// A phone number with its label, as entered and in its normalized forms.
public struct Phone: Hashable, Sendable {
    /// A label: mobile, home, work, main, other, or a custom one.
    public var type: String
    /// The number as entered (white space tidied).
    public var value: String
    /// The number in E.164 form where its country is known, as the engine
    /// stored it (by the database's default regions); nil on a phone not
    /// read from a database.
    public internal(set) var e164: String?
    /// How an address book shows the number (``displayValue(regions:)``),
    /// as the engine stored it; nil on a phone not read from a database
    /// or without an E.164 form.
    var display: String?
    /// Marked as the one to use first (vCard PREF, TYPE=pref).
    public var preferred: Bool
    /// The vCard parameters the model does not hold (`X-EVOLUTION-UI-SLOT=1`,
    /// `PREF=2`), as written, `;`-separated; written back on export.
    public var parameters: String?

    /// A phone as typed; its E.164 form is computed when it is stored.
    public init(type: String = WellKnownLabel.mobile.rawValue, value: String, preferred: Bool = false,
                parameters: String? = nil) {
        self.type = type
        self.value = value
        self.preferred = preferred
        self.parameters = parameters
    }

    /// Phones are equal when their labels, numbers and preference are: the
    /// E.164 form follows from the number, so a typed phone equals its
    /// stored self.
    public static func == (a: Phone, b: Phone) -> Bool {
        a.type == b.type && a.value == b.value && a.preferred == b.preferred && a.parameters == b.parameters
    }

    /// Hashes what `==` compares, leaving out the derived forms.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(value)
        hasher.combine(preferred)
        hasher.combine(parameters)
    }
}

/// An email address with its label.
public struct Email: Hashable, Sendable {
    /// A label: one of ``WellKnownLabel`` or a custom one.
    public var type: String
    /// The address as written.
    public var value: String
    /// Marked as the one to use first (vCard PREF, TYPE=pref).
    public var preferred: Bool
    /// The vCard parameters the model does not hold (`X-EVOLUTION-UI-SLOT=1`,
    /// `PREF=2`), as written, `;`-separated; written back on export.
    public var parameters: String?

    /// An email as typed or read.
    public init(type: String = WellKnownLabel.home.rawValue, value: String, preferred: Bool = false,
                parameters: String? = nil) {
        self.type = type
        self.value = value
        self.preferred = preferred
        self.parameters = parameters
    }
}

/// A postal address with its label, in vCard ADR's parts.
public struct Address: Hashable, Sendable {
    /// A label: one of ``WellKnownLabel`` or a custom one.
    public var type: String
    /// The street and house number.
    public var street1: String
    /// The extended address: apartment, suite, floor.
    public var street2: String
    /// The city or locality.
    public var city: String
    /// The state, province or region.
    public var state: String
    /// The postal code.
    public var zipcode: String
    /// The country, as written.
    public var country: String
    /// The post office box.
    public var poBox: String
    /// Marked as the one to use first (vCard PREF, TYPE=pref).
    public var preferred: Bool
    /// The vCard parameters the model does not hold (`X-EVOLUTION-UI-SLOT=1`,
    /// `PREF=2`), as written, `;`-separated; written back on export.
    public var parameters: String?

    /// An address from its parts; those not given are empty.
    public init(
        type: String = WellKnownLabel.home.rawValue, street1: String = "", street2: String = "",
        city: String = "", state: String = "", zipcode: String = "", country: String = "",
        poBox: String = "", preferred: Bool = false, parameters: String? = nil
    ) {
        self.type = type
        self.street1 = street1
        self.street2 = street2
        self.city = city
        self.state = state
        self.zipcode = zipcode
        self.country = country
        self.poBox = poBox
        self.preferred = preferred
        self.parameters = parameters
    }
}

/// The messenger services typed input accepts, as the `has` filter names
/// them.
public enum MessengerService: String, CaseIterable, Hashable, Sendable {
    case telegram, whatsapp, viber, signal, threema
}

/// A handle on a messenger service.
public struct Messenger: Hashable, Sendable {
    /// Typed input: one of ``MessengerService``'s raw values, matched
    /// case-insensitively and stored lower-case. Imported cards keep any
    /// service (skype, xmpp, matrix, …).
    public var service: String
    /// The user name, number or address on that service, as written.
    public var handle: String
    /// The vCard parameters the model does not hold (Apple's `type=HOME;type=pref`), as written, `;`-separated; written back on export.
    public var parameters: String?

    /// A messenger as typed or read.
    public init(service: String, handle: String, parameters: String? = nil) {
        self.service = service
        self.handle = handle
        self.parameters = parameters
    }
}
