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
