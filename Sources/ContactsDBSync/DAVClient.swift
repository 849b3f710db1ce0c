import ContactsDB
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// WebDAV requests to one server through AsyncHTTPClient: Basic
/// credentials on every request, failures turned into
/// ``ContactsDBError``s (69 unreachable or a server error, 77 refused
/// credentials), redirects followed with the method kept (the HTTP
/// client's own would turn a PROPFIND into a GET).
final class DAVClient: Sendable {
    struct Response: Sendable {
        var url: URL
        var status: Int
        var headers: HTTPHeaders
        var body: Data

        var etag: String? { headers.first(name: "ETag") }
    }

    /// Requests in flight at once when many go out together (pushes).
    static let concurrency = 8

    private let client: HTTPClient
    private let authorization: String?
    /// How long one request may take, from its start to its answer's last
    /// byte (a server that trickles a byte at a time is given up on too).
    private let timeout: TimeInterval

    /// The default of ``timeout``: long enough for a server busy writing a
    /// hundred cards, short enough that a hung sync ends.
    static let defaultTimeout: TimeInterval = Remote.defaultTimeout
    /// Longest wait for a connection, and for the next byte of an answer.
    static let idleTimeout: TimeInterval = 30
    /// The largest answer read: a multiget of a hundred cards with 10 MB
    /// photos fits in a few of these.
    static let maximumAnswerBytes = 64 << 20

    init(credentials: Credentials?, timeout: TimeInterval = defaultTimeout) {
        let idle = TimeAmount.milliseconds(Int64(min(timeout, Self.idleTimeout) * 1000))
        self.timeout = timeout
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: idle, read: idle))
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = Self.concurrency
        // A refused connection fails the sync at once (69) instead of after
        // the connect timeout's retries; a sync resumes where it stopped.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .enabled(limit: .ratio(100))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        authorization = credentials.map {
            "Basic " + Data("\($0.username):\($0.password)".utf8).base64EncodedString()
        }
    }

    deinit {
        try? client.syncShutdown()
    }

    /// Sends one request and waits for its answer; 401 throws
    /// ``ContactsDBError/remoteRefusedCredentials(url:)`` and a 5xx
    /// ``ContactsDBError/remoteUnavailable(url:reason:)``, other statuses
    /// are the caller's to read.
    func send(_ method: String, _ url: URL, headers: [(String, String)] = [], body: String? = nil) throws -> Response {
        try wait(start(method, url, headers: headers, body: body))
    }

    /// Sends the requests, ``concurrency`` at a time, and returns their
    /// answers in order. More at once would only wait in the connection
    /// pool, where a slow server makes them time out.
    func sendAll(_ requests: [Request]) throws -> [Response] {
        var answers: [Response] = []
        answers.reserveCapacity(requests.count)
        var inFlight = requests.prefix(Self.concurrency).map { start($0.method, $0.url, headers: $0.headers, body: $0.body) }[...]
        var next = inFlight.count
        while let pending = inFlight.popFirst() {
            answers.append(try wait(pending))
            if next < requests.count {
                let request = requests[next]
                inFlight.append(start(request.method, request.url, headers: request.headers, body: request.body))
                next += 1
            }
        }
        return answers
    }

    struct Request {
        var method: String, url: URL, headers: [(String, String)] = [], body: String? = nil
    }

    /// Starts a request without waiting: several go out at once, each
    /// waited for with ``wait(_:)``.
    func start(_ method: String, _ url: URL, headers: [(String, String)] = [], body: String? = nil) -> Pending {
        Pending(method: method, url: url, headers: headers, body: body, future: execute(method, url, headers, body))
    }

    struct Pending: Sendable {
        var method: String, url: URL, headers: [(String, String)], body: String?
        var future: EventLoopFuture<HTTPClient.Response>
    }

    func wait(_ pending: Pending) throws -> Response {
        var pending = pending
        var redirects = 0, retries = 0
        while redirects < 5 {
            let response: HTTPClient.Response
            do {
                response = try pending.future.wait()
            } catch let error as ContactsDBError {
                throw error
            } catch is ResponseAccumulator.ResponseTooBigError {
                throw ContactsDBError.remoteAnswerUnreadable(
                    url: pending.url.absoluteString,
                    reason: "its answer was larger than \(Self.maximumAnswerBytes >> 20) MB, more than a sync reads")
            } catch {
                throw ContactsDBError.remoteUnavailable(url: pending.url.absoluteString, reason: describe(error))
            }
            let status = Int(response.status.code)
            if [301, 302, 307, 308].contains(status), let location = response.headers.first(name: "Location"),
               let next = URL(string: location, relativeTo: pending.url)?.absoluteURL {
                // The credentials and the cards go to the server the remote
                // names, never on to another that a redirect names.
                guard Self.origin(of: next) == Self.origin(of: pending.url) else {
                    throw ContactsDBError.remoteUnavailable(
                        url: pending.url.absoluteString,
                        reason: "it redirected to \(next.absoluteString), another server, which is not followed with your credentials; if you trust it, give that URL to `remote add` yourself")
                }
                try Self.requireSecure(next)
                pending.url = next
                pending.future = execute(pending.method, next, pending.headers, pending.body)
                redirects += 1
                continue
            }
            // Locked (a server that writes one card at a time, as Xandikos
            // does) or too many requests: the same request again, a little
            // later.
            if [423, 429].contains(status), retries < 8 {
                let delay = response.headers.first(name: "Retry-After").flatMap(Double.init) ?? 0.05 * Double(1 << retries)
                Thread.sleep(forTimeInterval: min(delay, 10))
                retries += 1
                pending.future = execute(pending.method, pending.url, pending.headers, pending.body)
                continue
            }
            if status == 401 { throw ContactsDBError.remoteRefusedCredentials(url: pending.url.absoluteString) }
            if status >= 500 {
                throw ContactsDBError.remoteUnavailable(
                    url: pending.url.absoluteString, reason: "it answered \(pending.method) with \(status) \(response.status.reasonPhrase)")
            }
            let body = response.body.map { Data($0.readableBytesView) } ?? Data()
            return Response(url: pending.url, status: status, headers: response.headers, body: body)
        }
        throw ContactsDBError.remoteUnavailable(url: pending.url.absoluteString, reason: "it redirected too many times")
    }

    /// Refuses plain http to anything but this machine: credentials and
    /// contacts never cross a network in clear.
    static func requireSecure(_ url: URL) throws {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            throw ContactsDBError.invalidRemote(.notHTTP(url.absoluteString))
        }
        switch scheme {
        case "https": return
        case "http" where isLoopback(host): return
        case "http":
            throw ContactsDBError.invalidRemote(.plainHTTP(host: host))
        default:
            throw ContactsDBError.invalidRemote(.notHTTP(url.absoluteString))
        }
    }

    /// Scheme, host and port, the default port spelled out.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        let isLoopbackIPv4 = octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
        return host == "localhost" || host == "::1" || isLoopbackIPv4
    }

    // MARK: - Non public

    private func execute(_ method: String, _ url: URL, _ headers: [(String, String)], _ body: String?) -> EventLoopFuture<HTTPClient.Response> {
        do {
            var all = HTTPHeaders(headers)
            if let authorization { all.add(name: "Authorization", value: authorization) }
            if body != nil, !all.contains(name: "Content-Type") {
                all.add(name: "Content-Type", value: "application/xml; charset=utf-8")
            }
            let request = try HTTPClient.Request(
                url: url.absoluteString, method: HTTPMethod(rawValue: method), headers: all, body: body.map { .string($0) })
            // An answer is held whole while it is read: its size is capped.
            return client.execute(request: request, delegate: ResponseAccumulator(request: request, maxBodySize: Self.maximumAnswerBytes),
                                  deadline: .now() + .milliseconds(Int64(timeout * 1000))).futureResult
        } catch {
            return client.eventLoopGroup.next().makeFailedFuture(error)
        }
    }

    private func describe(_ error: Error) -> String {
        let idle = Int(min(timeout, Self.idleTimeout))
        switch error as? HTTPClientError {
        case .deadlineExceeded?: return "it did not answer within \(Int(timeout)) s"
        case .readTimeout?: return "it sent nothing for \(idle) s"
        case .connectTimeout?: return "it did not accept a connection within \(idle) s"
        default: break
        }
        let text = String(describing: error)
        if text.localizedCaseInsensitiveContains("refused") { return "the connection was refused" }
        // NIO's own connect timeout.
        if text.localizedCaseInsensitiveContains("timeout") { return "it did not accept a connection within \(idle) s" }
        return "it cannot be reached (\(text))"
    }
}

/// A username and the password read for this sync.
struct Credentials {
    var username: String
    var password: String
}
