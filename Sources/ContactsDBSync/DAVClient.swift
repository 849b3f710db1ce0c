import ContactsDB
import Foundation

/// WebDAV requests to one server over a ``DAVTransport``: Basic
/// credentials on every request, redirects followed within one origin
/// with the method kept, a locked or busy server asked again, and the
/// answers that fail a sync turned into ``ContactsDBError``s (69 for a
/// server that fails or cannot be reached, 77 for refused credentials).
struct DAVClient: Sendable {
    /// Requests in flight at once when many go out together (pushes).
    static let concurrency = 8

    private let transport: any DAVTransport
    private let authorization: String?

    init(credentials: Credentials?, transport: any DAVTransport) {
        self.transport = transport
        authorization = credentials.map {
            "Basic " + Data("\($0.username):\($0.password)".utf8).base64EncodedString()
        }
    }

    /// Sends one request and waits for its answer; 401 throws
    /// ``ContactsDBError/remoteRefusedCredentials(url:)`` and a 5xx but 501
    /// ``ContactsDBError/remoteUnavailable(url:reason:)``, other statuses
    /// are the caller's to read.
    func send(_ method: String, _ url: URL, headers: [(String, String)] = [], body: String? = nil) throws -> DAVResponse {
        try wait(start(method, url, headers: headers, body: body))
    }

    /// Sends the requests, ``concurrency`` at a time, and returns their
    /// answers in order. More at once would only wait in the connection
    /// pool, where a slow server makes them time out.
    func sendAll(_ requests: [DAVRequest]) throws -> [DAVResponse] {
        var answers: [DAVResponse] = []
        answers.reserveCapacity(requests.count)
        var inFlight = requests.prefix(Self.concurrency).map(start)[...]
        var next = inFlight.count
        while let pending = inFlight.popFirst() {
            answers.append(try wait(pending))
            if next < requests.count {
                inFlight.append(start(requests[next]))
                next += 1
            }
        }
        return answers
    }

    /// Starts a request without waiting: several go out at once, each
    /// waited for with ``wait(_:)``.
    func start(_ method: String, _ url: URL, headers: [(String, String)] = [], body: String? = nil) -> Pending {
        start(DAVRequest(method: method, url: url, headers: headers, body: body))
    }

    func start(_ request: DAVRequest) -> Pending {
        Pending(request: request, answer: transport.start(authorized(request)))
    }

    struct Pending: Sendable {
        var request: DAVRequest
        var answer: DAVPending
    }

    func wait(_ pending: Pending) throws -> DAVResponse {
        var pending = pending
        var redirects = 0, retries = 0
        while redirects < 5 {
            let response = try pending.answer.wait()
            let status = response.status
            if [301, 302, 307, 308].contains(status), let location = response.header("Location"),
               let next = URL(string: location, relativeTo: pending.request.url)?.absoluteURL {
                // The credentials and the cards go to the server the remote
                // names, never on to another that a redirect names.
                guard Self.origin(of: next) == Self.origin(of: pending.request.url) else {
                    throw ContactsDBError.remoteUnavailable(
                        url: pending.request.url.absoluteString,
                        reason: "it redirected to \(next.absoluteString), another server, which is not followed with your credentials; if you trust it, make that URL the remote yourself")
                }
                pending.request.url = next
                pending.answer = transport.start(authorized(pending.request))
                redirects += 1
                continue
            }
            // Locked (a server that writes one card at a time, as Xandikos
            // does) or too many requests: the same request again, a little
            // later.
            if [423, 429].contains(status), retries < 8 {
                let delay = response.header("Retry-After").flatMap(Double.init) ?? 0.05 * Double(1 << retries)
                Thread.sleep(forTimeInterval: min(delay, 10))
                retries += 1
                pending.answer = transport.start(authorized(pending.request))
                continue
            }
            if status == 401 {
                throw ContactsDBError.remoteRefusedCredentials(url: pending.request.url.absoluteString)
            }
            // 501: something this server does not implement (a REPORT it
            // lacks), which the caller reads; it is not a server down.
            if status >= 500, status != 501 {
                throw ContactsDBError.remoteUnavailable(
                    url: pending.request.url.absoluteString,
                    reason: "it answered \(pending.request.method) with \(status) \(response.reason)".trimmingCharacters(in: .whitespaces))
            }
            return response
        }
        throw ContactsDBError.remoteUnavailable(url: pending.request.url.absoluteString, reason: "it redirected too many times")
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

    private func authorized(_ request: DAVRequest) -> DAVRequest {
        var request = request
        if let authorization { request.headers.append(("Authorization", authorization)) }
        if request.body != nil, request.header("Content-Type") == nil {
            request.headers.append(("Content-Type", "application/xml; charset=utf-8"))
        }
        return request
    }
}

/// A username and the password read for this sync.
struct Credentials {
    var username: String
    var password: String
}
