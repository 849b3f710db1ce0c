import Foundation
import ContactsDB

/// What opens the app and keeps it open, new each run: the host name of
/// the app's own, the cookie's secret, and the one-time codes that trade
/// for it (docs/cli.md, "Looking at contacts: the web app").
struct SignIn: Sendable {
    /// The cookie's value: 256 random bits, sent to the browser in a
    /// Set-Cookie header alone, never in an address.
    let token: String
    /// The first label of the app's host name, `contactsdb-` and 128
    /// random bits: a server on another port of this machine cannot learn
    /// it, so it cannot serve a page at that host, which the browser would
    /// send the cookie to.
    let label: String
    /// The codes that open the app, each once.
    let codes: SignInCodes

    /// The cookie's name. Its host is the app's own, new each run, so
    /// that two servers on one machine never share a cookie.
    static let cookieName = "contactsdb"

    /// - parameter codeLifetime: how long a code opens the app; tests
    ///   that may wait on a loaded machine give more than a minute.
    init(codeLifetime: TimeInterval = SignInCodes.defaultLifetime) {
        token = RandomHex.make(words: 4)
        label = "contactsdb-" + RandomHex.make(words: 2)
        codes = SignInCodes(lifetime: codeLifetime)
    }

    /// `contactsdb-….localhost:PORT`: browsers resolve every name under
    /// `localhost` to the loopback address themselves (RFC 6761).
    func appHost(port: Int) -> String { "\(label).localhost:\(port)" }

    /// The address `serve` prints and opens: the machine's own, with a new
    /// code, so that neither the app's host name nor the token is in a
    /// process's arguments or a browser's history.
    func entryAddress(port: Int) -> String { "http://127.0.0.1:\(port)/?code=\(codes.make())" }

    /// The cookie that keeps the browser signed in: for the app's host
    /// alone (no Domain), out of scripts' reach, and sent by no request
    /// another site starts.
    var cookie: String { "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" }

    /// Whether any cookie of the request by ``cookieName`` is the token:
    /// a second cookie of the name, should one ever reach the app, can
    /// neither stand in for it nor sign the browser out.
    func isSignedIn(_ cookieHeaders: [String]) -> Bool {
        cookieHeaders.lazy.flatMap { $0.split(separator: ";") }.contains { pair in
            let parts = pair.drop { $0 == " " }.split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[0] == Self.cookieName && Self.same(String(parts[1]), token)
        }
    }

    /// Compares in time independent of where the two differ.
    static func same(_ given: String, _ secret: String) -> Bool {
        let (a, b) = (Array(given.utf8), Array(secret.utf8))
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// One-time codes: each opens the app once, within a lifetime of its
/// making, and is worth nothing after, wherever its address was left (a
/// process list, a browser's history, a terminal's scrollback).
final class SignInCodes: @unchecked Sendable {
    /// Long enough to open the address from the terminal by hand.
    static let defaultLifetime: TimeInterval = 60
    private let lifetime: TimeInterval
    private let lock = NSLock()
    private var issued: [(code: String, until: Date)] = []

    init(lifetime: TimeInterval = SignInCodes.defaultLifetime) { self.lifetime = lifetime }

    /// A new code of 128 random bits.
    func make() -> String {
        let code = RandomHex.make(words: 2)
        lock.withLock {
            issued.removeAll { $0.until <= Date() }
            issued.append((code, Date().addingTimeInterval(lifetime)))
        }
        return code
    }

    /// Whether `code` is one made here, unused and in time; it is used up
    /// either way.
    func take(_ code: String) -> Bool {
        lock.withLock {
            guard let at = issued.firstIndex(where: { SignIn.same(code, $0.code) }) else { return false }
            let until = issued.remove(at: at).until
            return Date() < until
        }
    }
}
