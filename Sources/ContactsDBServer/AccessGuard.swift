import Foundation
import Hummingbird

/// Who may use the app: the browser that opened an address `serve`
/// printed, on this machine, at a host name of the app's own
/// (docs/cli.md, "Looking at contacts: the web app").
///
/// - Two hosts answer, and no other (421: a site whose name is made to
///   resolve to 127.0.0.1, DNS rebinding, reaches nothing). The app's
///   host, `contactsdb-LABEL.localhost:PORT` (``SignIn``), serves the page
///   and its endpoints. The machine's, `127.0.0.1:PORT`, whose cookies
///   every server on the machine shares, reads and sets none: it serves
///   the entry, which trades a one-time code for the app's host, and a
///   path with a credential of its own goes beside the entry.
/// - At the app's host, a one-time code in the address is traded for the
///   cookie (HttpOnly, SameSite=Strict, that host's alone), which every
///   other request must carry.
/// - On every write, the Origin header: the app's own.
/// - No CORS header is ever sent, so another origin's script reads no
///   answer.
/// - The birthday calendar's feed (under
///   ``CalendarController/feedPrefix``) is for calendar apps, which send
///   no cookie: at the machine's host the Host check applies and the
///   cookie does not; the feed's route checks the feed token in the
///   path, which opens nothing else.
struct AccessGuard<Context: RequestContext>: RouterMiddleware {
    let signIn: SignIn
    /// The port served on, known once the server listens.
    let port: @Sendable () -> Int

    /// What a refused or stale code is told.
    static var usedCode: String {
        "This address opens the app once, within a minute, and it is used or past its time: "
            + "press Enter where `contactsdb serve` runs for a new one."
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let port = port()
        let app = signIn.appHost(port: port)
        guard let host = request.head.authority, [app, "127.0.0.1:\(port)"].contains(host) else {
            return Self.refusal(.misdirectedRequest, "This server answers only at the addresses `contactsdb serve` printed.")
        }
        if request.method != .get && request.method != .head {
            guard host == app, request.headers[.origin] == "http://\(app)" else {
                return Self.refusal(.forbidden, "A change must come from the app's own page.")
            }
        }
        guard host == app else { return try await atMachineHost(request, port: port, context: context, next: next) }
        let isSignedIn = signIn.isSignedIn(request.headers[values: .cookie])
        if request.uri.path == "/", let code = request.uri.queryParameters.get("code") {
            // The code leaves the address bar at once; an old one, from the
            // history, opens the app of a browser already signed in.
            guard request.method == .get, isSignedIn || signIn.codes.take(code) else {
                return Self.refusal(.unauthorized, Self.usedCode)
            }
            var response = Response(status: .seeOther, headers: [.location: "/"])
            response.headers[.setCookie] = signIn.cookie
            return Self.hardened(response)
        }
        guard isSignedIn else {
            return Self.refusal(.unauthorized, "Open an address `contactsdb serve` printed, or press Enter where it runs for a new one.")
        }
        return try await passed(request, context: context, next: next)
    }

    /// The route's answer, hardened; a failure the route throws (a
    /// missing id) too, which would otherwise be made an answer after
    /// every middleware, without the headers.
    private func passed(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return Self.hardened(try await next(request, context))
        } catch let error as any HTTPResponseError {
            return Self.hardened(try error.response(from: request, context: context))
        }
    }

    /// The machine's own host, whose cookies every server on the machine
    /// shares: no cookie is read or set here. It serves the entry; a path
    /// with a credential of its own, which it checks itself, would go
    /// beside it, on to `next`.
    private func atMachineHost(
        _ request: Request, port: Int, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        switch request.uri.path {
        case "/": return entry(request, port: port)
        case let path where path.hasPrefix(CalendarController.feedPrefix):
            guard request.method == .get || request.method == .head else { return Response(status: .notFound) }
            return try await passed(request, context: context, next: next)
        default: return Self.refusal(.misdirectedRequest, "The app is not served at this address: open one `contactsdb serve` printed.")
        }
    }

    /// Takes a code and sends the browser on to the app's host with a new
    /// one, so that the host name is learnt only by the holder of a code.
    private func entry(_ request: Request, port: Int) -> Response {
        guard request.method == .get, let code = request.uri.queryParameters.get("code"), signIn.codes.take(code) else {
            return Self.refusal(.unauthorized, Self.usedCode)
        }
        let next = "http://\(signIn.appHost(port: port))/?code=\(signIn.codes.make())"
        return Self.hardened(Response(status: .seeOther, headers: [.location: next]))
    }

    static func refusal(_ status: HTTPResponse.Status, _ sentence: String) -> Response {
        hardened(Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                          body: .init(byteBuffer: ByteBuffer(string: sentence + "\n"))))
    }

    /// Headers every answer carries: nothing is loaded from another host,
    /// the page is framed by no one, nothing is cached or sniffed, and no
    /// address of the app's host goes on as a referrer (the page's own
    /// `referrer` meta says so too). The page brings its policy, which
    /// names its inline parts' nonce; a photo brings one with `sandbox`.
    static func hardened(_ response: Response) -> Response {
        var response = response
        if response.headers[.contentSecurityPolicy] == nil {
            response.headers[.contentSecurityPolicy] = policy(nonce: nil)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.cacheControl] = "no-store"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        return response
    }

    /// Everything from this server only; with a nonce, the inline style
    /// and scripts that carry it too, and no other.
    static func policy(nonce: String?) -> String {
        let inline = nonce.map { "; script-src 'nonce-\($0)'; style-src 'nonce-\($0)'" } ?? ""
        return "default-src 'self'\(inline); img-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    }
}
