import Foundation
import ContactsDB
import Hummingbird

/// The page, compiled into the binary (SwiftPM's `embedInCode`): plain
/// HTML, CSS and JavaScript, no build step, nothing from another host.
///
/// The document carries the stylesheet and the answers to the script's
/// first requests, put in `index.html` where it marks them, so that the
/// first screen waits on no request but the modules', which the browser
/// asks for side by side.
enum Page {
    /// What the page asks for first (list.js's `reload` and `loadInfo`),
    /// with the parameters in the order `listParameters` writes them:
    /// the list in its starting state, and the info. Should the two part,
    /// the page asks the server as it would without.
    static let preloadedPaths = ["/api/list?sort=name&meta=1&offset=0&limit=100", "/api/info"]

    /// The document with `answers` (path, JSON) for the script to take
    /// instead of asking. Its inline parts run under a nonce of its own.
    static func document(answers: [(path: String, json: Data)]) -> Response {
        let nonce = RandomHex.make(words: 2)
        var bytes = template.head
        bytes += Array("<style nonce=\"\(nonce)\">\n".utf8) + PackageResources.app_css + Array("</style>\n".utf8)
        bytes += Array("<script type=\"application/json\" id=\"preloaded\">".utf8) + preloaded(answers)
            + Array("</script>\n".utf8)
        for name in modules.keys.sorted() where name != "app.js" {
            bytes += Array("<link rel=\"modulepreload\" href=\"\(modulePrefix)\(name)\" nonce=\"\(nonce)\">\n".utf8)
        }
        bytes += Array("<script type=\"module\" src=\"\(modulePrefix)app.js\" nonce=\"\(nonce)\"></script>\n".utf8)
        bytes += template.tail
        var response = Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        response.headers[.contentSecurityPolicy] = AccessGuard<BasicRequestContext>.policy(nonce: nonce)
        return response
    }

    /// Where the page's modules are served, each by its file name.
    static let modulePrefix = "/app/"

    /// The page's modules by file name: app.js, which the document loads,
    /// imports the others, which it names to the browser up front so that
    /// they load side by side rather than one after another.
    static let modules: [String: [UInt8]] = [
        "app.js": PackageResources.app_js, "shared.js": PackageResources.shared_js,
        "helpers.js": PackageResources.helpers_js, "list.js": PackageResources.list_js,
        "contact.js": PackageResources.contact_js, "form.js": PackageResources.form_js,
        "duplicates.js": PackageResources.duplicates_js, "sheets.js": PackageResources.sheets_js,
    ]

    /// A module of the page, or nil for a name it has none of.
    static func module(named name: String) -> Response? {
        modules[name].map {
            Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: $0)))
        }
    }

    /// index.html around the line that marks where the parts go.
    private static let template: (head: [UInt8], tail: [UInt8]) = {
        let marker = Array("<!-- app.css, the preloaded answers and app.js -->\n".utf8)
        let html = PackageResources.index_html
        guard let at = html.firstRange(of: marker) else { preconditionFailure("index.html marks no place for its parts") }
        return (Array(html[..<at.lowerBound]), Array(html[at.upperBound...]))
    }()

    /// `{"path": answer, …}`, with every `<` written `\u003c`: no name in
    /// an answer can close the script element or open a comment in it
    /// (JSON has `<` only inside strings, where the escape reads the same).
    /// The paths are ``preloadedPaths``, which hold nothing JSON escapes.
    private static func preloaded(_ answers: [(path: String, json: Data)]) -> [UInt8] {
        let object = "{" + answers.map { "\"\($0.path)\":" + String(decoding: $0.json, as: UTF8.self) }.joined(separator: ",") + "}"
        var bytes: [UInt8] = []
        bytes.reserveCapacity(object.utf8.count)
        for byte in object.utf8 {
            if byte == UInt8(ascii: "<") { bytes += "\\u003c".utf8 } else { bytes.append(byte) }
        }
        return bytes
    }
}
