import ContactsDB
import ContactsDBSync
import Dispatch
import Foundation
import Hummingbird
import HummingbirdCore

/// The JSON endpoints, each one call of ``ContactStore`` (the reads of a
/// list page two: its sections, its contacts), with the store's errors
/// as JSON (``ErrorAnswer``).
struct Endpoints: Sendable {
    let store: ContactStore

    /// Held by every write, so that a stop waits for the one under way and
    /// lets none start after it (``WebApp/run(port:ready:)``).
    static let writes = NSLock()
    /// The most contacts one list request returns.
    static let pageLimit = 500
    /// The most bytes a request body may hold: a contact with its photo
    /// in base64, a third larger than the photo's limit.
    static let bodyLimit = 32 << 20

    func add(to router: Router<some RequestContext>) {
        addReads(to: router)
        addContactWrites(to: router)
        addMergesLinksAndSync(to: router)
        addCalendar(to: router)
        addTrashAndHistory(to: router)
    }

    private func addReads(to router: Router<some RequestContext>) {
        router.get("/") { _, _ in await document() }
        router.get(RouterPath(stringLiteral: Page.modulePrefix + ":module")) { _, context in
            Page.module(named: context.parameters.get("module") ?? "") ?? Response(status: .notFound)
        }
        for (path, read) in preloadableReads {
            router.get(RouterPath(stringLiteral: path)) { request, _ in try await answer { try read(request.uri) } }
        }
        router.get("/api/contact") { request, _ in try await answer { try contact(try contactID(request)) } }
        router.get("/api/photo") { request, _ in
            try await image { try store.photo(id: try contactID(request)).map { ($0, PhotoImage.mediaType(of: $0.data)) } }
        }
        router.get("/api/thumbnail") { request, _ in
            try await image { try store.thumbnail(id: try contactID(request)).map { ($0, Self.thumbnailType($0)) } }
        }
        router.get("/api/phone-format") { request, _ in
            try await answer { try phoneFormat(request.uri.queryParameters.get("text") ?? "") }
        }
        router.get("/api/duplicates") { _, _ in try await answer { try duplicates() } }
        router.get("/api/merges") { _, _ in try await answer { try merges() } }
        router.get("/api/events") { _, _ in events() }
    }

    /// Each a write of the store's, under ``writes``.
    private func addContactWrites(to router: Router<some RequestContext>) {
        router.post("/api/contact") { request, _ in
            let (body, book) = (try await bytes(of: request), request.uri.queryParameters.get("book"))
            return try await answer(status: .created, writing: true) {
                let draft = try ContactJSON.decode(body, source: "the form").draft
                return try encode(["id": try store.add(draft, toBook: book.flatMap { $0.isEmpty ? nil : $0 }, by: .web).id])
            }
        }
        router.patch("/api/contact") { request, _ in
            let (body, id, revision) = (try await bytes(of: request), try contactID(request), ifRevision(request))
            return try await answer(writing: true) {
                let patch = try ContactJSON.decode(body, source: "the form")
                let contact = try store.update(id: id, ifRevision: revision, by: .web) { patch.apply(to: &$0) }
                return try encode(["id": contact.id])
            }
        }
        router.delete("/api/contact") { request, _ in
            let (id, revision) = (try contactID(request), ifRevision(request))
            return try await answer(writing: true) {
                try store.delete(ids: [id], ifRevision: revision, by: .web)
                return try encode(["deleted": id])
            }
        }
        router.post("/api/move") { request, _ in
            let (id, book) = (try contactID(request), request.uri.queryParameters.get("to") ?? "")
            return try await answer(writing: true) { try encode(["moved": try store.move(ids: [id], toBook: book)]) }
        }
    }

    private func addMergesLinksAndSync(to router: Router<some RequestContext>) {
        router.post("/api/merge") { request, _ in
            let body = try await bytes(of: request)
            return try await answer(writing: true) {
                let ids = try JSONDecoder().decode(IDsRequest.self, from: body).ids
                return try encode(MergeAnswer(try store.merge(ids)))
            }
        }
        router.post("/api/link") { request, _ in
            let body = try await bytes(of: request)
            return try await answer(writing: true) {
                try encode(["linked": try store.link(try JSONDecoder().decode(IDsRequest.self, from: body).ids)])
            }
        }
        router.post("/api/unlink") { request, _ in
            let id = try contactID(request)
            return try await answer(writing: true) { try encode(["from": try store.unlink([id])[0].from]) }
        }
        router.post("/api/unmerge") { request, _ in
            let merge = request.uri.queryParameters.get("id", as: Int.self)
            return try await answer(writing: true) {
                guard let merge else { throw RequestError("Give the merge's number as id.") }
                let result = try store.unmerge(merge)
                return try encode(UnmergeAnswer(restored: result.restored, survivor: result.survivor))
            }
        }
        router.post("/api/sync") { request, _ in
            let remote = request.uri.queryParameters.get("remote") ?? ""
            // Not under `writes`: a sync may take minutes, and one killed
            // part-way is safe (docs/sync.md).
            return try await answer {
                let report = try store.sync(remote: remote)
                return try encode(SyncAnswer(remote: remote, pulled: report.pulled, pushed: report.pushed,
                                             conflicts: report.conflicts))
            }
        }
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
            sorts: ContactSort.Key.allCases.map(\.rawValue), messengers: MessengerService.allCases.map(\.rawValue),
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

    /// The whole card as the JSON format holds it (its photo apart, at
    /// `/api/photo`), its phones as the list shows them, and the contacts
    /// linked with it (one person in other books), with their names.
    private func contact(_ id: String) throws -> Data {
        guard var contact = try store.contact(id: id) else { throw ContactsDBError.contactsNotFound(ids: [id]) }
        contact.photo = nil
        let regions = try store.phoneRegions()
        let shown = try encode(contact.phones.map { $0.displayValue(regions: regions) })
        let linked = try encode(try store.contacts(ids: try store.linkedIDs(of: id)).map {
            ["id": $0.id, "name": $0.displayName, "book": $0.book]
        })
        return Data("{\"contact\": \(contact.jsonText), \"phonesShown\": ".utf8) + shown
            + Data(", \"linked\": ".utf8) + linked + Data("}".utf8)
    }

    /// What the phone field shows for `typed`, formatted as libphonenumber
    /// formats a number being typed in the database's first region. The
    /// field holds what was shown before, so the formatter is fed its
    /// digits and a leading "+": it stops formatting at any other
    /// character, as at a person's own hyphen.
    private func phoneFormat(_ typed: String) throws -> Data {
        let region = try store.phoneRegions().codes.first ?? "ZZ"
        let trimmed = typed.drop { $0 == " " }
        let digits = (trimmed.hasPrefix("+") ? "+" : "") + trimmed.filter { ("0"..."9").contains($0) }.prefix(32)
        return try encode(["shown": AsYouTypeFormatter(region: region).format(digits)])
    }

    private func duplicates() throws -> Data {
        let sets = try store.duplicates()
        let names = Dictionary(try store.contacts(ids: Array(Set(sets.flatMap(\.ids)))).map { ($0.id, $0.displayName) },
                               uniquingKeysWith: { first, _ in first })
        return try encode(sets.map {
            DuplicateAnswer(ids: $0.ids, names: $0.ids.map { names[$0] ?? $0 }, confidence: $0.confidence.rawValue,
                            reasons: $0.reasons, action: $0.action.rawValue)
        })
    }

    private func merges() throws -> Data {
        try encode(try store.merges().map { MergeRecordAnswer(id: $0.id, into: $0.into, merged: $0.merged, at: Timestamp.string(from: $0.at)) })
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

    // MARK: - Non public

    /// The reads whose answers the page's document may carry, by path:
    /// their routes and the document call the same ones.
    private var preloadableReads: [(path: String, read: @Sendable (URI) throws -> Data)] {
        [("/api/info", { _ in try info() }), ("/api/list", { try list($0.queryParameters) })]
    }

    /// The page, with the answers to its first requests in it; one that
    /// fails is left out, for the page to ask for and show its error.
    private func document() async -> Response {
        let reads = preloadableReads
        let answers = await offServerThreads {
            Page.preloadedPaths.compactMap { path -> (path: String, json: Data)? in
                let uri = URI(path)
                guard let read = reads.first(where: { $0.path == uri.path })?.read else { return nil }
                return (try? read(uri)).map { (path, $0) }
            }
        }
        return Page.document(answers: (try? answers.get()) ?? [])
    }

    /// Runs `body` off the server's threads, which the store would block.
    func offServerThreads<T: Sendable>(writing: Bool = false, _ body: @escaping @Sendable () throws -> T) async -> Result<T, Error> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                if writing { Self.writes.lock() }
                defer { if writing { Self.writes.unlock() } }
                continuation.resume(returning: Result { try body() })
            }
        }
    }

    /// Runs `body` off the server's threads and answers with its JSON or
    /// the error's.
    func answer(
        status: HTTPResponse.Status = .ok, writing: Bool = false, _ body: @escaping @Sendable () throws -> Data
    ) async throws -> Response {
        let result = await offServerThreads(writing: writing, body)
        switch result {
        case .success(let data): return Self.json(data, status: status)
        case .failure(let error):
            let answer = ErrorAnswer(error)
            return Self.json(try encode(answer), status: answer.status)
        }
    }

    /// A photo or a thumbnail with the image type its bytes are, or nil.
    /// A photo's bytes came from a card of other software (an import, a
    /// server), whose declared type may be HTML, script or SVG: only a
    /// type found in the bytes goes out as an image, and anything else
    /// as a download that no browser shows or runs, in a sandbox even so.
    private func image(_ body: @escaping @Sendable () throws -> (ContactPhoto, type: String?)?) async throws -> Response {
        switch await offServerThreads(body) {
        case .success(let (photo, type)?):
            var headers: HTTPFields = [.contentType: type ?? "application/octet-stream"]
            if type == nil { headers[.contentDisposition] = "attachment" }
            headers[.contentSecurityPolicy] = AccessGuard<BasicRequestContext>.policy(nonce: nil) + "; sandbox"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: photo.data)))
        case .success(nil):
            return Response(status: .notFound, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "No photo.\n")))
        case .failure(let error):
            let answer = ErrorAnswer(error)
            return Self.json(try encode(answer), status: answer.status)
        }
    }

    /// A thumbnail is the engine's own encoding of a photo, JPEG or WebP
    /// (``PhotoImage/Thumbnail``), never a card's bytes; its type goes out
    /// when it is one of those two.
    private static func thumbnailType(_ thumbnail: ContactThumbnail) -> String? {
        ["image/jpeg", "image/webp"].contains(thumbnail.mediaType) ? thumbnail.mediaType : nil
    }

    func bytes(of request: Request) async throws -> Data {
        Data((try await request.body.collect(upTo: Self.bodyLimit)).readableBytesView)
    }

    func contactID(_ request: Request) throws -> String {
        guard let id = request.uri.queryParameters.get("id"), !id.isEmpty else { throw HTTPError(.badRequest, message: "Give the contact's id.") }
        return id
    }

    private func ifRevision(_ request: Request) -> Int? {
        request.uri.queryParameters.get("revision", as: Int.self)
    }

    static func json(_ data: Data, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

func encode(_ value: some Encodable) throws -> Data {
    try JSONEncoder().encode(value)
}
