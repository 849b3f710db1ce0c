import ContactsDB
import Foundation

/// How a sync's requests reach an address book: one request out, its
/// answer back, nothing else. ``DAVClient`` adds what every server needs
/// (credentials, redirects, retries, statuses that fail the sync) over
/// any transport: ``HTTPTransport`` over the network, or an address book
/// held in memory for tests.
package protocol DAVTransport: Sendable {
    /// Starts `request` without waiting for its answer, so that several
    /// can be under way at once. A failure to reach the server at all is
    /// thrown by ``DAVPending/wait()`` as a ``ContactsDBError``.
    func start(_ request: DAVRequest) -> DAVPending
}

package struct DAVRequest: Sendable {
    package var method: String
    package var url: URL
    package var headers: [(String, String)]
    package var body: String?

    package init(method: String, url: URL, headers: [(String, String)] = [], body: String? = nil) {
        (self.method, self.url, self.headers, self.body) = (method, url, headers, body)
    }

    package func header(_ name: String) -> String? { headers.value(of: name) }
}

package struct DAVResponse: Sendable {
    /// The URL that answered, after redirects.
    package var url: URL
    package var status: Int
    package var reason: String
    package var headers: [(String, String)]
    package var body: Data
    /// When the work on this answer must be done (its request's start
    /// plus `--timeout`), and that limit: reading its cards counts, not
    /// only the wait for its bytes. Nil where nothing limits it.
    package var deadline: (date: Date, timeout: TimeInterval)?

    package init(url: URL, status: Int, reason: String = "", headers: [(String, String)] = [], body: Data = Data()) {
        (self.url, self.status, self.reason, self.headers, self.body) = (url, status, reason, headers, body)
    }

    package func header(_ name: String) -> String? { headers.value(of: name) }

    package var etag: String? { header("ETag") }
}

/// An answer under way.
package struct DAVPending: Sendable {
    private let answer: @Sendable () throws -> DAVResponse

    package init(_ answer: @escaping @Sendable () throws -> DAVResponse) {
        self.answer = answer
    }

    package func wait() throws -> DAVResponse {
        try answer()
    }
}

extension [(String, String)] {
    /// The first value of the header `name`, whatever its case.
    func value(of name: String) -> String? {
        first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}
