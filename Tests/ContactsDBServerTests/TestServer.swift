import ContactsDB
import ContactsDBTestSupport
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import ContactsDBServer

/// The web app's router over a real store, on a database file of its
/// own (seeded, as `serve` opens one), answering in-process. Sendable
/// by hand: its directory is only read after `init`.
struct TestServer: @unchecked Sendable {
    /// The port the guard takes the server to be on.
    static let port = 8123
    let directory = TemporaryDirectory()
    let store: ContactStore
    /// Codes good for an hour: on a loaded machine a test may wait more
    /// than the minute a served app gives between making and using one.
    let signIn = SignIn(codeLifetime: 3_600)

    init() throws {
        store = try ContactStore.open(at: directory.path("contacts.sqlite"))
    }

    var appHost: String { signIn.appHost(port: Self.port) }
    var machineHost: String { "127.0.0.1:\(Self.port)" }

    /// Runs `body` with a client of the router. HummingbirdTesting's
    /// `.router` gives every request the authority `localhost`; a socket's
    /// server takes it from the Host header, and so does this one, so that
    /// the guard sees the host a browser sends.
    func test<T: Sendable>(_ body: @Sendable (Client) async throws -> T) async throws -> T {
        let router = buildRouter(store: store, signIn: signIn, port: { Self.port }).buildResponder()
        let responder = CallbackResponder<BasicRequestContext> { request, context in
            var head = request.head
            if let host = head.headerFields[.hostHeader] {
                head.authority = host
                head.headerFields[.hostHeader] = nil
            }
            return try await router.respond(to: Request(head: head, body: request.body), context: context)
        }
        let (appHost, machineHost, cookie) = (appHost, machineHost, "\(SignIn.cookieName)=\(signIn.token)")
        return try await Application(responder: responder).test(.router) { client in
            try await body(Client(client: client, appHost: appHost, machineHost: machineHost, cookie: cookie))
        }
    }

    /// Sends requests as a browser would: by default as the app's own
    /// page, signed in, with its Origin on writes.
    struct Client: Sendable {
        let client: any TestClientProtocol
        let appHost: String
        let machineHost: String
        let cookie: String

        /// A request as the signed-in page sends it.
        func send(_ method: HTTPRequest.Method, _ uri: String, json: String? = nil) async throws -> TestResponse {
            var headers: HTTPFields = [.hostHeader: appHost, .cookie: cookie]
            if method != .get { headers[.origin] = "http://\(appHost)" }
            if json != nil { headers[.contentType] = "application/json" }
            return try await client.execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
        }

        func get(_ uri: String) async throws -> TestResponse { try await send(.get, uri) }

        /// A request with exactly these headers (`Host` among them).
        func raw(_ method: HTTPRequest.Method, _ uri: String, _ headers: HTTPFields, body: String? = nil) async throws -> TestResponse {
            try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        }
    }
}

extension HTTPField.Name {
    /// Host, which HTTPTypes keeps as `authority` and names no field for.
    static let hostHeader = Self("Host")!
}

extension TestResponse {
    /// The body as text.
    var text: String { String(decoding: body.readableBytesView, as: UTF8.self) }

    /// The body as JSON.
    func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) }

    /// The body as a JSON object.
    func object() throws -> [String: Any] {
        try #require(try json() as? [String: Any], "not an object: \(text)")
    }
}
