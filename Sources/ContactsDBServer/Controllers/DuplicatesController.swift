import ContactsDB
import Foundation
import Hummingbird

/// One person in several contacts: the sets that look like duplicates,
/// merges and their undoing, and links across books, as `duplicates`,
/// `merge`, `unmerge`, `link` and `unlink` do them.
struct DuplicatesController: Sendable {
    let store: ContactStore

    func addRoutes(to group: RouterGroup<some RequestContext>) {
        group.get("/api/duplicates", use: duplicates)
            .get("/api/merges", use: merges)
            .post("/api/merge", use: merge)
            .post("/api/unmerge", use: unmerge)
            .post("/api/link", use: link)
            .post("/api/unlink", use: unlink)
    }

    // MARK: - Reading

    @Sendable func duplicates(_ request: Request, context: some RequestContext) async throws -> Response {
        let store = store
        return try await Answer.json {
            let sets = try store.duplicates()
            let names = Dictionary(try store.contacts(ids: Array(Set(sets.flatMap(\.ids)))).map { ($0.id, $0.displayName) },
                                   uniquingKeysWith: { first, _ in first })
            return try encode(sets.map {
                DuplicateAnswer(ids: $0.ids, names: $0.ids.map { names[$0] ?? $0 }, confidence: $0.confidence.rawValue,
                                reasons: $0.reasons, action: $0.action.rawValue)
            })
        }
    }

    /// The merges not taken back, oldest first.
    @Sendable func merges(_ request: Request, context: some RequestContext) async throws -> Response {
        let store = store
        return try await Answer.json {
            try encode(try store.merges().map {
                MergeRecordAnswer(id: $0.id, into: $0.into, merged: $0.merged, at: Timestamp.string(from: $0.at))
            })
        }
    }

    // MARK: - Writing

    /// The contacts of the body's `ids` merged into one.
    @Sendable func merge(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, body) = (store, try await request.bodyBytes())
        return try await Answer.json(writing: true) {
            let ids = try JSONDecoder().decode(IDsRequest.self, from: body).ids
            return try encode(MergeAnswer(try store.merge(ids)))
        }
    }

    /// The merge numbered `id` undone.
    @Sendable func unmerge(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, merge) = (store, request.uri.queryParameters.get("id", as: Int.self))
        return try await Answer.json(writing: true) {
            guard let merge else { throw RequestError("Give the merge's number as id.") }
            let result = try store.unmerge(merge)
            return try encode(UnmergeAnswer(restored: result.restored, survivor: result.survivor))
        }
    }

    /// The contacts of the body's `ids`, each in a book of its own, linked
    /// as one person.
    @Sendable func link(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, body) = (store, try await request.bodyBytes())
        return try await Answer.json(writing: true) {
            try encode(["linked": try store.link(try JSONDecoder().decode(IDsRequest.self, from: body).ids)])
        }
    }

    @Sendable func unlink(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, id) = (store, try request.contactID())
        return try await Answer.json(writing: true) { try encode(["from": try store.unlink([id])[0].from]) }
    }
}
