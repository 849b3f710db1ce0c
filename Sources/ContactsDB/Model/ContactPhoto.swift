import Foundation

/// A contact's photo: the original bytes as given, and their type.
public struct ContactPhoto: Hashable, Sendable {
    /// `image/jpeg`, `image/png`, … as found by content where it can be,
    /// else as the card declared it.
    public var mediaType: String
    /// The image bytes, unchanged.
    public var data: Data

    /// A photo from its bytes and their media type.
    public init(mediaType: String, data: Data) {
        self.mediaType = mediaType
        self.data = data
    }
}

/// A photo's thumbnail as stored: a square of at most
/// ``PhotoImage/thumbnailSide`` pixels, `image/jpeg` or `image/webp`. The
/// same two fields as a photo, under the name that says which it is.
public typealias ContactThumbnail = ContactPhoto
