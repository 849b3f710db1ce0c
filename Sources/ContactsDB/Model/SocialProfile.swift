import Foundation

/// A profile on a social service, by handle, URL or both.
public struct SocialProfile: Hashable, Sendable {
    /// The service's name as the card gives it (twitter, linkedin, …).
    public var service: String
    /// The user name on the service; empty when only the URL is known.
    public var handle: String
    /// The profile's URL; empty when only the handle is known.
    public var url: String

    /// A profile by service, with a handle, a URL or both.
    public init(service: String, handle: String = "", url: String = "") {
        self.service = service
        self.handle = handle
        self.url = url
    }
}
