import ContactsDB
import Foundation
import Hummingbird

/// Nothing lost, even by mistake: the trash with its restore, a contact's
/// history, one of its versions and the restore of one, as `trash`,
/// `restore`, `history` and `show --revision` do them (docs/cli.md,
/// "Nothing lost, even by mistake").
extension Endpoints {
    func addTrashAndHistory(to router: Router<some RequestContext>) {
        router.get("/api/trash") { request, _ in
            let books = request.uri.queryParameters.getAll("book").filter { !$0.isEmpty }
            return try await answer { try encode(try store.trash(inBooks: books.isEmpty ? nil : books).map(TrashAnswer.init)) }
        }
        router.post("/api/trash/restore") { request, _ in
            let body = try await bytes(of: request)
            return try await answer(writing: true) {
                let wanted = try JSONDecoder().decode(RestoreRequest.self, from: body)
                guard !wanted.ids.isEmpty else { throw RequestError("Give the ids of the contacts to restore.") }
                return try encode(RestoreAnswer(try store.restore(ids: wanted.ids, asNew: wanted.asNew ?? false)))
            }
        }
        router.get("/api/history") { request, _ in
            let id = try contactID(request)
            return try await answer { try encode(try store.history(id: id).map(VersionAnswer.init)) }
        }
        router.get("/api/history/version") { request, _ in
            let (id, revision) = (try contactID(request), request.uri.queryParameters.get("revision", as: Int.self))
            return try await answer { try version(of: id, at: try Self.required(revision)) }
        }
        router.post("/api/history/restore") { request, _ in
            let (id, revision) = (try contactID(request), request.uri.queryParameters.get("revision", as: Int.self))
            return try await answer(writing: true) {
                let contact = try store.restore(id: id, revision: try Self.required(revision))
                return try encode(RevisionRestoreAnswer(id: contact.id, revision: contact.revision))
            }
        }
    }

    /// The contact as it was at `revision`, in the shape of
    /// `/api/contact`'s `contact` (its photo apart).
    private func version(of id: String, at revision: Int) throws -> Data {
        var contact = try store.contact(id: id, revision: revision)
        contact.photo = nil
        return Data("{\"contact\": \(contact.jsonText)}".utf8)
    }

    private static func required(_ revision: Int?) throws -> Int {
        guard let revision else { throw RequestError("Give the revision, one the contact's history lists, as revision.") }
        return revision
    }
}

// MARK: - Shapes

/// `{"id", "name", "book", "deletedAt", "by"}`, as `trash --format json`.
struct TrashAnswer: Encodable {
    var id: String
    var name: String
    var book: String
    var deletedAt: String
    var by: String

    init(_ trashed: TrashedContact) {
        (id, name, book) = (trashed.id, trashed.name, trashed.book)
        (deletedAt, by) = (Timestamp.string(from: trashed.deletedAt), trashed.deletedBy.rawValue)
    }
}

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

/// `{"revision", "at", "by", "fields"}`, as `history --format json`: `by`
/// is null where no write recorded it.
struct VersionAnswer: Encodable {
    var revision: Int
    var at: String
    var by: String?
    var fields: [String]

    init(_ version: ContactVersion) {
        (revision, at, by, fields) = (version.revision, Timestamp.string(from: version.at), version.by?.rawValue, version.fields)
    }

    enum CodingKeys: CodingKey { case revision, at, by, fields }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(revision, forKey: .revision)
        try container.encode(at, forKey: .at)
        try container.encode(by, forKey: .by)
        try container.encode(fields, forKey: .fields)
    }
}

struct RevisionRestoreAnswer: Encodable {
    var id: String
    var revision: Int
}
