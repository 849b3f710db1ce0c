import Foundation
import Hummingbird

/// Who may use the app: the browser that opened the address `serve`
/// printed, on this machine, through the names of this machine only.
///
/// - The token, once in the address, then an HttpOnly, SameSite=Strict
///   cookie, which no script of the page and no other site's request
///   carries.
/// - The Host header: 127.0.0.1:PORT or localhost:PORT, so that another
///   site whose name is made to resolve to 127.0.0.1 (DNS rebinding)
///   reaches nothing.
/// - On every write, the Origin header: the app's own.
/// - No CORS header is ever sent, so another origin's script reads no
///   answer.
/// - The birthday calendar's feed (under ``Endpoints/feedPrefix``) is
///   for calendar apps, which send no cookie: the Host check applies,
///   the cookie does not, and the feed's route checks the feed token in
///   the path, which opens nothing else.
struct AccessGuard<Context: RequestContext>: RouterMiddleware {
    let token: String
    let port: Int

    /// A cookie per port: two servers on one machine do not sign each
    /// other out.
    var cookieName: String { "contactsdb-\(port)" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let host = request.head.authority, ["127.0.0.1:\(port)", "localhost:\(port)"].contains(host) else {
            return Self.refusal(.misdirectedRequest, "This server answers only to 127.0.0.1:\(port) and localhost:\(port).")
        }
        if request.method != .get && request.method != .head {
            guard request.headers[.origin] == "http://\(host)" else {
                return Self.refusal(.forbidden, "A change must come from the app's own page.")
            }
        }
        if request.uri.path.hasPrefix(Endpoints.feedPrefix) {
            guard request.method == .get || request.method == .head else { return Response(status: .notFound) }
            return Self.hardened(try await next(request, context))
        }
        if request.uri.path == "/", let given = request.uri.queryParameters.get("token") {
            guard request.method == .get, Self.same(given, token) else {
                return Self.refusal(.unauthorized, "This token is not the one `contactsdb serve` printed; open the address it printed.")
            }
            // The token leaves the address bar and the history at once.
            var response = Response(status: .seeOther, headers: [.location: "/"])
            response.headers[.setCookie] = "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
            return Self.hardened(response)
        }
        guard let cookie = request.cookies[cookieName]?.value, Self.same(cookie, token) else {
            return Self.refusal(.unauthorized, "Open the address `contactsdb serve` printed: it holds the token.")
        }
        return Self.hardened(try await next(request, context))
    }

    /// Compares in time independent of where the two differ.
    static func same(_ given: String, _ token: String) -> Bool {
        let (a, b) = (Array(given.utf8), Array(token.utf8))
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func refusal(_ status: HTTPResponse.Status, _ sentence: String) -> Response {
        hardened(Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                          body: .init(byteBuffer: ByteBuffer(string: sentence + "\n"))))
    }

    /// Headers every answer carries: nothing is loaded from another host,
    /// the page is framed by no one, nothing is cached or sniffed. (The
    /// page's own `referrer` meta keeps its address from being sent on.)
    /// The page brings its policy, which names its inline parts' nonce.
    static func hardened(_ response: Response) -> Response {
        var response = response
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = policy(nonce: nil)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// Everything from this server only; with a nonce, the inline style
    /// and scripts that carry it too, and no other.
    static func policy(nonce: String?) -> String {
        let inline = nonce.map { "; script-src 'nonce-\($0)'; style-src 'nonce-\($0)'" } ?? ""
        return "default-src 'self'\(inline); img-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    }
}
