import ContactsDB
import Foundation
import Hummingbird
import HummingbirdCore

/// The list and what frames it: the page itself and its modules, a page
/// of the list, the info its filters and forms are built from, and the
/// events that tell it a contact changed.
struct ListController: Sendable {
    let store: ContactStore

    /// The most contacts one list request returns.
    static let pageLimit = 500

    func addRoutes(to group: RouterGroup<some RequestContext>) {
        group.get("/") { _, _ in await document() }
        group.get(RouterPath(stringLiteral: Page.modulePrefix + ":module")) { _, context in
            Page.module(named: context.parameters.get("module") ?? "") ?? Response(status: .notFound)
        }
        for (path, read) in preloadableReads {
            group.get(RouterPath(stringLiteral: path)) { request, _ in try await Answer.json { try read(request.uri) } }
        }
        group.get("/api/events") { _, _ in events() }
    }

    // MARK: - Reading

    private func info() throws -> Data {
        let remotes = try store.remotes().map {
            // The name, address and last sync: never how it signs in.
            RemoteAnswer(name: $0.name, url: $0.url, lastSyncedAt: $0.lastSyncedAt.map { Timestamp.string(from: $0) })
        }
        return try encode(InfoAnswer(
            regions: try store.phoneRegions().codes, books: try store.books().map { BookAnswer(name: $0.name, count: $0.contactCount, isDefault: $0.isDefault) },
            groups: try store.groups(), remotes: remotes, attributes: ContactAttributes.named.map(\.name),
            sorts: ContactSort.Key.allCases.map(\.rawValue),
            photoBytes: PhotoImage.maximumBytes, feedPath: BirthdayCalendar.feedPath(token: try store.calendarFeedToken()),
            trashDays: try store.trashDays()))
    }

    /// A page of the list; with `meta`, also how many match and, in the
    /// sectioned order unless `sections=0`, the sections.
    private func list(_ parameters: Parameters) throws -> Data {
        let query = try ListQuery(parameters).query
        let offset = max(0, parameters.get("offset", as: Int.self) ?? 0)
        let limit = min(Self.pageLimit, max(0, parameters.get("limit", as: Int.self) ?? 50))
        var answer = ListAnswer(offset: offset, contacts: [])
        if parameters.get("meta") == "1" {
            if query.sort.key == .name && parameters.get("sections") != "0" {
                let sections = try store.sections(matching: query)
                answer.sections = query.sort.descending ? Array(sections.reversed()) : sections
                answer.total = sections.reduce(0) { $0 + $1.count }
            } else {
                answer.total = try store.count(matching: query)
            }
        }
        guard limit > 0 else { return try encode(answer) }
        let regions = try store.phoneRegions()
        answer.contacts = try store.contacts(matching: query.page(limit: limit, offset: offset)).map {
            ListItem(id: $0.id, name: $0.displayName, section: $0.sectionKey,
                     phone: $0.phones.first?.displayValue(regions: regions), email: $0.emails.first?.value,
                     photo: $0.hasPhoto, favorite: $0.isFavorite, revision: $0.revision)
        }
        return try encode(answer)
    }

    // MARK: - The page

    /// The reads whose answers the page's document may carry, by path:
    /// their routes and the document call the same ones.
    var preloadableReads: [(path: String, read: @Sendable (URI) throws -> Data)] {
        [("/api/info", { _ in try info() }), ("/api/list", { try list($0.queryParameters) })]
    }

    /// The page, with the answers to its first requests in it; one that
    /// fails is left out, for the page to ask for and show its error.
    private func document() async -> Response {
        let reads = preloadableReads
        let answers = await Answer.offServerThreads {
            Page.preloadedPaths.compactMap { path -> (path: String, json: Data)? in
                let uri = URI(path)
                guard let read = reads.first(where: { $0.path == uri.path })?.read else { return nil }
                return (try? read(uri)).map { (path, $0) }
            }
        }
        return Page.document(answers: (try? answers.get()) ?? [])
    }

    // MARK: - Events

    /// Server-sent events: `change` with the ids each commit changed, from
    /// this process or any other (the library's observation), and a comment
    /// every 15 seconds, whose failed write ends the stream of a page
    /// that went away.
    private func events() -> Response {
        let store = store
        let body = ResponseBody { writer in
            let (events, continuation) = AsyncStream.makeStream(of: String.self)
            let changes = Task {
                for try await set in store.observeChanges() {
                    let ids = set.changes.map(\.id)
                    let data = (try? JSONEncoder().encode(["ids": ids])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                    continuation.yield("event: change\ndata: \(data)\n\n")
                }
                continuation.finish()
            }
            let beats = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(15))
                    continuation.yield(": still here\n\n")
                }
            }
            defer { changes.cancel(); beats.cancel() }
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            for await event in events { try await writer.write(ByteBuffer(string: event)) }
            try await writer.finish(nil)
        }
        return AccessGuard<BasicRequestContext>.hardened(Response(
            status: .ok, headers: [.contentType: "text/event-stream"], body: body))
    }
}

/// The filters and sort of a list request, named as `query`'s options.
struct ListQuery {
    var query = ContactQuery()

    init(_ parameters: Parameters) throws {
        let has = (parameters.get("has") ?? "").split(separator: ",").map(String.init)
        var attributes = ContactAttributes()
        for name in has {
            guard let entry = ContactAttributes.named.first(where: { $0.name == name }) else {
                throw RequestError("There is no filter \"\(name)\"; the filters are \(ContactAttributes.named.map(\.name).joined(separator: ", ")).")
            }
            attributes.formUnion(entry.attribute)
        }
        if !attributes.isEmpty { query = query.filter(.has(attributes)) }
        // As the search field is typed: words of letters or digits, or none.
        if let text = parameters.get("text"), text.contains(where: { $0.isLetter || $0.isNumber }) {
            query = query.filter(.text(text))
        }
        if parameters.get("favorite") == "1" { query = query.filter(.favorite) }
        if let group = parameters.get("group"), !group.isEmpty { query = query.filter(.group(group)) }
        if let book = parameters.get("book"), !book.isEmpty { query = query.filter(.books([book])) }
        let sort = parameters.get("sort") ?? "name"
        guard let key = ContactSort.Key(rawValue: sort) else {
            throw RequestError("There is no sort \"\(sort)\"; the sorts are \(ContactSort.Key.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        query = query.sorted(by: key, descending: parameters.get("desc") == "1")
    }
}
