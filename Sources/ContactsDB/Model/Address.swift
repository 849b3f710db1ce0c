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
