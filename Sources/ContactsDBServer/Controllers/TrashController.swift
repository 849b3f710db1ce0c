import ContactsDB
import Foundation
import Hummingbird

/// Nothing lost, even by mistake: the trash with its restore, a contact's
/// history, one of its versions and the restore of one, as `trash`,
/// `restore`, `history` and `show --revision` do them (docs/cli.md,
/// "Nothing lost, even by mistake").
struct TrashController: Sendable {
    let store: ContactStore

    func addRoutes(to group: RouterGroup<some RequestContext>) {
        group.get("/api/trash", use: trash)
            .post("/api/trash/restore", use: restoreFromTrash)
            .get("/api/history", use: history)
            .get("/api/history/version", use: version)
            .post("/api/history/restore", use: restoreVersion)
    }

    // MARK: - The trash

    /// The deleted contacts the trash keeps, of the `book`s given or all.
    @Sendable func trash(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, books) = (store, request.uri.queryParameters.getAll("book").filter { !$0.isEmpty })
        return try await Answer.json { jsonArray(try store.trash(inBooks: books.isEmpty ? nil : books).map(\.jsonText)) }
    }

    @Sendable func restoreFromTrash(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, body) = (store, try await request.bodyBytes())
        return try await Answer.json(writing: true) {
            let wanted = try JSONDecoder().decode(RestoreRequest.self, from: body)
            guard !wanted.ids.isEmpty else { throw RequestError("Give the ids of the contacts to restore.") }
            return try encode(RestoreAnswer(try store.restore(ids: wanted.ids, asNew: wanted.asNew ?? false)))
        }
    }

    // MARK: - History

    /// The contact's versions, newest first.
    @Sendable func history(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, id) = (store, try request.contactID())
        return try await Answer.json { jsonArray(try store.history(id: id).map(\.jsonText)) }
    }

    /// The contact as it was at `revision`, in the shape of
    /// `/api/contact`'s `contact` (its photo apart).
    @Sendable func version(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, id, revision) = (store, try request.contactID(), request.revision)
        return try await Answer.json {
            var contact = try store.contact(id: id, revision: try Self.required(revision))
            contact.photo = nil
            return Data("{\"contact\": \(contact.jsonText)}".utf8)
        }
    }

    /// The contact put back as it was at `revision`, as a new revision.
    @Sendable func restoreVersion(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, id, revision) = (store, try request.contactID(), request.revision)
        return try await Answer.json(writing: true) {
            let contact = try store.restore(id: id, revision: try Self.required(revision))
            return try encode(RevisionRestoreAnswer(id: contact.id, revision: contact.revision))
        }
    }

    /// The library's JSON of each entry, as the command line writes them.
    private func jsonArray(_ objects: [String]) -> Data {
        Data(("[" + objects.joined(separator: ", ") + "]").utf8)
    }

    private static func required(_ revision: Int?) throws -> Int {
        guard let revision else { throw RequestError("Give the revision, one the contact's history lists, as revision.") }
        return revision
    }
}

// MARK: - Shapes

/// The deleted contacts to bring back; `asNew` gives each a new id and UID.
struct RestoreRequest: Decodable {
    var ids: [String]
    var asNew: Bool?
}

/// The ids the contacts came back under, and the books that were gone
/// (their contacts went into `defaultBook`).
struct RestoreAnswer: Encodable {
    var ids: [String]
    var goneBooks: [String]
    var defaultBook: String?

    init(_ result: RestoreResult) {
        (ids, goneBooks, defaultBook) = (result.ids, result.goneBooks, result.defaultBook)
    }
}

struct RevisionRestoreAnswer: Encodable {
    var id: String
    var revision: Int
}
