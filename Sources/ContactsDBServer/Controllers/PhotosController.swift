import ContactsDB
import Foundation
import Hummingbird

/// A contact's photo and its thumbnail, as images the page shows and
/// never as anything a browser would run.
struct PhotosController: Sendable {
    let store: ContactStore

    func addRoutes(to group: RouterGroup<some RequestContext>) {
        group.get("/api/photo", use: photo)
            .get("/api/thumbnail", use: thumbnail)
    }

    @Sendable func photo(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, id) = (store, try request.contactID())
        return try await Self.image { try store.photo(id: id).map { ($0, PhotoImage.mediaType(of: $0.data)) } }
    }

    @Sendable func thumbnail(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, id) = (store, try request.contactID())
        return try await Self.image { try store.thumbnail(id: id).map { ($0, Self.thumbnailType($0)) } }
    }

    // MARK: - Non public

    /// A photo or a thumbnail with the image type its bytes are, or nil.
    /// A photo's bytes came from a card of other software (an import, a
    /// server), whose declared type may be HTML, script or SVG: only a
    /// type found in the bytes goes out as an image, and anything else
    /// as a download that no browser shows or runs, in a sandbox even so.
    private static func image(_ body: @escaping @Sendable () throws -> (ContactPhoto, type: String?)?) async throws -> Response {
        switch await Answer.offServerThreads(body) {
        case .success(let (photo, type)?):
            var headers: HTTPFields = [.contentType: type ?? "application/octet-stream"]
            if type == nil { headers[.contentDisposition] = "attachment" }
            headers[.contentSecurityPolicy] = AccessGuard<BasicRequestContext>.policy(nonce: nil) + "; sandbox"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: photo.data)))
        case .success(nil):
            return Response(status: .notFound, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "No photo.\n")))
        case .failure(let error):
            return try Answer.error(error)
        }
    }

    /// A thumbnail is the engine's own encoding of a photo, JPEG or WebP
    /// (``PhotoImage/Thumbnail``), never a card's bytes; its type goes out
    /// when it is one of those two.
    private static func thumbnailType(_ thumbnail: ContactThumbnail) -> String? {
        ["image/jpeg", "image/webp"].contains(thumbnail.mediaType) ? thumbnail.mediaType : nil
    }
}
