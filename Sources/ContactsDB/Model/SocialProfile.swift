import Foundation

/// A profile on a social service, by handle, URL or both.
public struct SocialProfile: Hashable, Sendable {
    public var service: String
    public var handle: String
    public var url: String

    public init(service: String, handle: String = "", url: String = "") {
        self.service = service
        self.handle = handle
        self.url = url
    }
}
