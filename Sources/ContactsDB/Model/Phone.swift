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
