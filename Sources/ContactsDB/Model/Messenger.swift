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
