import Foundation

/// A labelled value: a date (`anniversary` or a custom label) or a URL.
public struct LabeledValue: Hashable, Sendable {
    /// The label: `anniversary`, `home`, `work`, … or a custom one.
    public var type: String
    /// The date (`YYYY-MM-DD` or `--MM-DD`) or the URL, as written.
    public var value: String
    /// The vCard parameters the model does not hold (`X-EVOLUTION-UI-SLOT=1`,
    /// `PREF=2`), as written, `;`-separated; written back on export.
    public var parameters: String?

    /// A labelled value as typed or read.
    public init(type: String, value: String, parameters: String? = nil) {
        self.type = type
        self.value = value
        self.parameters = parameters
    }
}
