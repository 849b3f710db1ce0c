import ContactsDB
@testable import ContactsDBSync
import Foundation

/// A CardDAV address book held in memory, behind ``DAVTransport``: what a
/// sync's tests run against without a server process. It keeps RFC 6578
/// sync-tokens (a change log), ETags that change with each write, 412 on a
/// stale If-Match or an If-None-Match: * that finds a card, 404 for what
/// it lacks, and answers a sync-collection in pages (507 on the collection
/// while more remain). Tests change it as another client would, and can
/// make it forget tokens, list without ETags, leave cards out of a
/// multiget, refuse with a status, or run code before an answer; and
/// behave as DAViCal does where it departs from the RFCs.
final class InMemoryAddressBook: DAVTransport, @unchecked Sendable {
    static let origin = URL(string: "http://127.0.0.1:8080")!
    static let collectionPath = "/dav/anna/contacts/"
    static var collection: URL { URL(string: collectionPath, relativeTo: origin)!.absoluteURL }
    /// This address book's server: another port is another server, for a
    /// database with several remotes.
    let origin: URL
    var collection: URL { URL(string: Self.collectionPath, relativeTo: origin)!.absoluteURL }

    init(port: Int = 8080) {
        origin = URL(string: "http://127.0.0.1:\(port)")!
    }

    struct Card {
        var text: String
        var etag: String
    }

    private let lock = NSLock()
    private var cards: [String: Card] = [:]
    /// path → the token of its last change (a write or a removal).
    private var changedAt: [String: Int] = [:]
    private var token = 1
    private var etagCounter = 0
    /// The oldest token still answered; older ones get 403 valid-sync-token.
    private var oldestToken = 0

    // What the address book does, set by a test.
    var keepsSyncTokens = true
    /// Whether the collection's PROPFIND shows its sync-token (RFC 6578 §4).
    var showsSyncToken = true
    var listsETags = true
    /// Changes per sync-collection answer; nil answers all at once.
    var pageSize: Int?
    /// Paths a multiget leaves out of its answer, as if the server lost them.
    var omittedFromMultiget: Set<String> = []
    /// A status every request of this method gets instead of its answer.
    var refusing: [String: Int] = [:]
    /// A status the next request of this method gets, once.
    var refusingOnce: [String: Int] = [:]
    /// A status each request of this method gets once this many were
    /// answered (a server that falls over midway).
    var refusingAfter: [String: (answered: Int, status: Int)] = [:]
    /// A Location every request of this method is redirected to (301).
    var redirecting: [String: String] = [:]
    /// Methods whose requests are carried out but whose answers are lost
    /// (the connection drops, the process is killed): the sync fails.
    var losingAnswers: Set<String> = []
    /// Methods whose requests never arrive (the process was killed before
    /// sending them): not carried out, and the sync fails.
    var droppingRequests: Set<String> = []
    /// Whether ETags are sent at all (listings, multigets, PUT answers).
    var sendsETags = true
    /// Whether a PUT's answer carries the ETag (RFC 6352 §6.3.2 lets a
    /// server that changed the card leave it out).
    var answersPutsWithETag = true
    /// Whether PUTs are kept: false answers each as stored, with an ETag
    /// of its own, and keeps nothing (a broken proxy, a full quota).
    var keepsPuts = true
    /// The status a PUT of a card whose UID another card here has is
    /// refused with, naming CardDAV's `no-uid-conflict` (Radicale 409,
    /// Xandikos 412); nil takes it.
    var refusesSecondUID: Int?
    /// DAViCal: a sync-token it no longer knows is answered with every card
    /// it holds (as new, under a new token), not 403.
    var answersForgottenTokensInFull = false
    /// DAViCal: a card PUT is stored rewritten (REV added, names and
    /// parameters upper-cased) and the PUT answered without an ETag, or
    /// (`answersRewrittenPutsWithETag`) with one the card does not have.
    var rewritesPuts = false
    var answersRewrittenPutsWithETag = false
    /// A card served by a multiget is rewritten as it goes: a new ETag
    /// (and a change at the next sync-collection) each time.
    var rewritesOnEachGet = false
    /// Runs before a request of this method is answered (another client's
    /// change arriving mid-sync); cleared once it has run.
    var before: [String: () -> Void] = [:]
    /// The largest card a PUT may carry, in bytes: a larger one is refused
    /// 403 with CardDAV's `max-resource-size` precondition.
    var maxResourceSize: Int?
    /// Every request answered, in order.
    private(set) var requests: [DAVRequest] = []

    // MARK: - Another client

    /// Writes a card as another client would; returns its new ETag.
    @discardableResult
    func put(_ name: String, _ text: String) -> String {
        lock.withLock { store(Self.collectionPath + name, text) }
    }

    func delete(_ name: String) {
        lock.withLock { remove(Self.collectionPath + name) }
    }

    /// Moves a card to another name, as a server that renames does.
    func move(_ name: String, to newName: String) {
        lock.withLock {
            guard let card = cards[Self.collectionPath + name] else { return }
            remove(Self.collectionPath + name)
            _ = store(Self.collectionPath + newName, card.text)
        }
    }

    /// Forgets every token so far: the next sync-collection with one of
    /// them is refused (403 valid-sync-token).
    func forgetTokens() {
        lock.withLock { oldestToken = token }
    }

    var names: [String] {
        lock.withLock { cards.keys.map { String($0.dropFirst(Self.collectionPath.count)) }.sorted() }
    }

    func card(_ name: String) -> Card? {
        lock.withLock { cards[Self.collectionPath + name] }
    }

    func requests(_ method: String) -> [DAVRequest] {
        lock.withLock { requests.filter { $0.method == method } }
    }

    // MARK: - DAVTransport

    func start(_ request: DAVRequest) -> DAVPending {
        let hook: (() -> Void)? = lock.withLock { before.removeValue(forKey: request.method) }
        hook?()
        let (response, isLost) = lock.withLock { () -> (DAVResponse, Bool) in
            if droppingRequests.contains(request.method) { return (DAVResponse(url: request.url, status: 0), true) }
            requests.append(request)
            return (answer(request), losingAnswers.contains(request.method))
        }
        return DAVPending {
            if isLost { throw ContactsDBError.remoteUnavailable(url: request.url.absoluteString, reason: "the connection was lost") }
            return response
        }
    }

    // MARK: - Non public

    private func store(_ path: String, _ text: String) -> String {
        etagCounter += 1
        let etag = "\"e\(etagCounter)\""
        cards[path] = Card(text: text, etag: etag)
        token += 1
        changedAt[path] = token
        return etag
    }

    private func remove(_ path: String) {
        guard cards.removeValue(forKey: path) != nil else { return }
        token += 1
        changedAt[path] = token
    }

    private func answer(_ request: DAVRequest) -> DAVResponse {
        if let status = refusing[request.method] ?? refusingOnce.removeValue(forKey: request.method) {
            return DAVResponse(url: request.url, status: status)
        }
        if let (answered, status) = refusingAfter[request.method], requests.count(where: { $0.method == request.method }) > answered {
            return DAVResponse(url: request.url, status: status)
        }
        if let location = redirecting[request.method] {
            return DAVResponse(url: request.url, status: 301, headers: [("Location", location)])
        }
        let path = request.url.path
        let isCollection = path == Self.collectionPath || path + "/" == Self.collectionPath
        switch request.method {
        case "PROPFIND" where isCollection:
            return request.header("Depth") == "0" ? multistatus(request, [collectionResponse()]) : listing(request)
        case "REPORT" where isCollection:
            let body = request.body ?? ""
            return body.contains("sync-collection") ? syncCollection(request, body) : multiget(request, body)
        case "PUT":
            return put(request, path)
        case "DELETE":
            guard let card = cards[path] else { return DAVResponse(url: request.url, status: 404) }
            if let match = request.header("If-Match"), !Self.matches(match, card) { return DAVResponse(url: request.url, status: 412) }
            remove(path)
            return DAVResponse(url: request.url, status: 204)
        default:
            return DAVResponse(url: request.url, status: 404)
        }
    }

    private func put(_ request: DAVRequest, _ path: String) -> DAVResponse {
        let existing = cards[path]
        if request.header("If-None-Match") == "*", existing != nil { return DAVResponse(url: request.url, status: 412) }
        if let match = request.header("If-Match"), !Self.matches(match, existing) { return DAVResponse(url: request.url, status: 412) }
        if let status = refusesSecondUID, let uid = Self.uid(request.body ?? ""),
           cards.contains(where: { $0.key != path && Self.uid($0.value.text) == uid }) {
            let error = "<d:error xmlns:d=\"DAV:\" xmlns:card=\"urn:ietf:params:xml:ns:carddav\"><card:no-uid-conflict/></d:error>"
            return DAVResponse(url: request.url, status: status, body: Data(error.utf8))
        }
        if let maxResourceSize, (request.body ?? "").utf8.count > maxResourceSize {
            let error = "<d:error xmlns:d=\"DAV:\" xmlns:card=\"urn:ietf:params:xml:ns:carddav\"><card:max-resource-size/></d:error>"
            return DAVResponse(url: request.url, status: 403, body: Data(error.utf8))
        }
        let etag: String
        if keepsPuts, rewritesPuts {
            _ = store(path, Self.rewritten(request.body ?? ""))
            etagCounter += 1
            return DAVResponse(url: request.url, status: existing == nil ? 201 : 204,
                               headers: answersRewrittenPutsWithETag ? [("ETag", "\"e\(etagCounter)\"")] : [])
        } else if keepsPuts {
            etag = store(path, request.body ?? "")
        } else {
            etagCounter += 1
            etag = "\"e\(etagCounter)\""
        }
        return DAVResponse(url: request.url, status: existing == nil ? 201 : 204,
                           headers: sendsETags && answersPutsWithETag ? [("ETag", etag)] : [])
    }

    private func listing(_ request: DAVRequest) -> DAVResponse {
        let members = cards.keys.sorted().map { path in
            response(path, properties: (listsETags && sendsETags ? "<d:getetag>\(cards[path]!.etag)</d:getetag>" : "") + "<d:resourcetype/>")
        }
        return multistatus(request, [collectionResponse()] + members)
    }

    private func syncCollection(_ request: DAVRequest, _ body: String) -> DAVResponse {
        guard keepsSyncTokens else { return DAVResponse(url: request.url, status: 501) }
        let given = Self.between(body, "<d:sync-token>", "</d:sync-token>") ?? ""
        let since: Int
        if given.isEmpty {
            since = 0
        } else if let number = Int(given.split(separator: "/").last ?? ""), number >= oldestToken, number <= token {
            since = number
        } else if answersForgottenTokensInFull {
            let responses = cards.keys.sorted().map { path in
                response(path, properties: listsETags && sendsETags ? "<d:getetag>\(cards[path]!.etag)</d:getetag>" : "")
            }
            token += 1
            return multistatus(request, responses, token: "http://127.0.0.1/sync/\(token)")
        } else {
            return DAVResponse(url: request.url, status: 403,
                               body: Data("<d:error xmlns:d=\"DAV:\"><d:valid-sync-token/></d:error>".utf8))
        }
        let changed = changedAt.filter { $0.value > since }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
        let page = pageSize.map { Array(changed.prefix($0)) } ?? changed
        let isTruncated = page.count < changed.count
        let next = isTruncated ? page.last!.value : token
        var responses = page.map { path, _ in
            cards[path].map { response(path, properties: listsETags && sendsETags ? "<d:getetag>\($0.etag)</d:getetag>" : "") }
                ?? "<d:response><d:href>\(path)</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>"
        }
        if isTruncated {
            responses.append("<d:response><d:href>\(Self.collectionPath)</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status></d:response>")
        }
        return multistatus(request, responses, token: "http://127.0.0.1/sync/\(next)")
    }

    private func multiget(_ request: DAVRequest, _ body: String) -> DAVResponse {
        var responses: [String] = []
        var rest = body[...]
        while let start = rest.range(of: "<d:href>"), let end = rest.range(of: "</d:href>", range: start.upperBound..<rest.endIndex) {
            let href = String(rest[start.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
            let path = URL(string: href, relativeTo: origin)?.path ?? href
            if omittedFromMultiget.contains(path) { continue }
            if let card = cards[path] {
                responses.append(response(path, properties: (sendsETags ? "<d:getetag>\(card.etag)</d:getetag>" : "") + "<card:address-data>\(DAVXML.escape(card.text))</card:address-data>"))
                if rewritesOnEachGet { _ = store(path, card.text) }
            } else {
                responses.append("<d:response><d:href>\(href)</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>")
            }
        }
        return multistatus(request, responses)
    }

    private func collectionResponse() -> String {
        response(Self.collectionPath, properties: """
            <d:resourcetype><d:collection/><card:addressbook/></d:resourcetype><d:displayname>Contacts</d:displayname>\
            <card:supported-address-data><card:address-data-type content-type="text/vcard" version="3.0"/>\
            <card:address-data-type content-type="text/vcard" version="4.0"/></card:supported-address-data>\
            \(keepsSyncTokens && showsSyncToken ? "<d:sync-token>http://127.0.0.1/sync/\(token)</d:sync-token>" : "")
            """)
    }

    private func response(_ href: String, properties: String) -> String {
        "<d:response><d:href>\(href)</d:href><d:propstat><d:prop>\(properties)</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }

    private func multistatus(_ request: DAVRequest, _ responses: [String], token: String? = nil) -> DAVResponse {
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav">\(responses.joined())\
            \(token.map { "<d:sync-token>\($0)</d:sync-token>" } ?? "")</d:multistatus>
            """
        return DAVResponse(url: request.url, status: 207, headers: [("Content-Type", "application/xml")], body: Data(xml.utf8))
    }

    /// If-Match: an ETag, or `*` for any card that exists.
    private static func matches(_ condition: String, _ card: Card?) -> Bool {
        guard let card else { return false }
        return condition == "*" || condition == card.etag
    }

    /// A card as DAViCal stores it: each line's name and parameters
    /// upper-cased, REV added.
    private static func rewritten(_ card: String) -> String {
        let lines = card.split(whereSeparator: \.isNewline).map { line -> String in
            guard !line.hasPrefix(" "), let colon = line.firstIndex(of: ":") else { return String(line) }
            return line[..<colon].uppercased() + line[colon...]
        }
        return (lines.dropLast() + ["REV:20260101T000000Z", "END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    private static func uid(_ card: String) -> String? {
        card.split(whereSeparator: \.isNewline).first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
    }

    private static func between(_ text: String, _ open: String, _ close: String) -> String? {
        guard let start = text.range(of: open), let end = text.range(of: close, range: start.upperBound..<text.endIndex) else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }
}
