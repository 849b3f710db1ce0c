import Hummingbird

/// The page's files, compiled into the binary (SwiftPM's `embedInCode`):
/// plain HTML, CSS and JavaScript, no build step, nothing from another
/// host.
enum Page {
    struct File: Sendable {
        var bytes: [UInt8]
        var type: String

        var response: Response {
            AccessGuard<BasicRequestContext>.hardened(Response(
                status: .ok, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(bytes: bytes))))
        }
    }

    static let files: [(path: String, file: File)] = [
        ("/", File(bytes: PackageResources.index_html, type: "text/html; charset=utf-8")),
        ("/app.css", File(bytes: PackageResources.app_css, type: "text/css; charset=utf-8")),
        ("/app.js", File(bytes: PackageResources.app_js, type: "text/javascript; charset=utf-8")),
    ]
}
