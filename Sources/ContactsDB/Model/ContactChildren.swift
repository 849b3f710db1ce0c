/// The labels the engine knows; any other non-empty label is kept as given.
public enum WellKnownLabel: String, CaseIterable, Sendable {
    case mobile, home, work, main, other
}

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

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(value)
        hasher.combine(preferred)
        hasher.combine(parameters)
    }
}

public struct Email: Hashable, Sendable {
    public var type: String
    public var value: String
    public var preferred: Bool
    /// The vCard parameters the model does not hold (`X-EVOLUTION-UI-SLOT=1`,
    /// `PREF=2`), as written, `;`-separated; written back on export.
    public var parameters: String?

    public init(type: String = WellKnownLabel.home.rawValue, value: String, preferred: Bool = false,
                parameters: String? = nil) {
        self.type = type
        self.value = value
        self.preferred = preferred
        self.parameters = parameters
    }
}

public struct Address: Hashable, Sendable {
    public var type: String
    public var street1: String
    public var street2: String
    public var city: String
    public var state: String
    public var zipcode: String
    public var country: String
    public var poBox: String
    public var preferred: Bool
    /// The vCard parameters the model does not hold (`X-EVOLUTION-UI-SLOT=1`,
    /// `PREF=2`), as written, `;`-separated; written back on export.
    public var parameters: String?

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

public enum MessengerService: String, CaseIterable, Hashable, Sendable {
    case telegram, whatsapp, viber, signal, threema
}

public struct Messenger: Hashable, Sendable {
    /// Typed input: one of ``MessengerService``'s raw values, matched
    /// case-insensitively and stored lower-case. Imported cards keep any
    /// service (skype, xmpp, matrix, …).
    public var service: String
    public var handle: String
    /// The vCard parameters the model does not hold (Apple's `type=HOME;type=pref`), as written, `;`-separated; written back on export.
    public var parameters: String?

    public init(service: String, handle: String, parameters: String? = nil) {
        self.service = service
        self.handle = handle
        self.parameters = parameters
    }
}
