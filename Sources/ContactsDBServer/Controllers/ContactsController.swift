import ContactsDB
import Foundation
import Hummingbird

/// One contact: read, added, changed, deleted or moved to another book,
/// each a call of the store's that the command line makes too, and the
/// phone field's formatting as it is typed.
struct ContactsController: Sendable {
    let store: ContactStore

    func addRoutes(to group: RouterGroup<some RequestContext>) {
        group.get("/api/contact", use: show)
            .post("/api/contact", use: add)
            .patch("/api/contact", use: update)
            .delete("/api/contact", use: delete)
            .post("/api/move", use: move)
            .get("/api/phone-format", use: phoneFormat)
    }

    // MARK: - Handlers

    /// The whole card as the JSON format holds it (its photo apart, at
    /// `/api/photo`), its phones as the list shows them, and the contacts
    /// linked with it (one person in other books), with their names.
    @Sendable func show(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, id) = (store, try request.contactID())
        return try await Answer.json {
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
    }

    /// A new contact from the form, in `book` or the default one: 201
    /// with its id.
    @Sendable func add(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, body, book) = (store, try await request.bodyBytes(), request.uri.queryParameters.get("book"))
        return try await Answer.json(status: .created, writing: true) {
            let draft = try ContactJSON.decode(body, source: "the form").draft
            return try encode(["id": try store.add(draft, toBook: book.flatMap { $0.isEmpty ? nil : $0 }, by: .web).id])
        }
    }

    /// The form's changes, refused when the contact has moved on from
    /// the `revision` the form was filled from.
    @Sendable func update(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, body, id, revision) = (store, try await request.bodyBytes(), try request.contactID(), request.revision)
        return try await Answer.json(writing: true) {
            let patch = try ContactJSON.decode(body, source: "the form")
            let contact = try store.update(id: id, ifRevision: revision, by: .web) { patch.apply(to: &$0) }
            return try encode(["id": contact.id])
        }
    }

    @Sendable func delete(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, id, revision) = (store, try request.contactID(), request.revision)
        return try await Answer.json(writing: true) {
            try store.delete(ids: [id], ifRevision: revision, by: .web)
            return try encode(["deleted": id])
        }
    }

    /// The contact into the book `to`.
    @Sendable func move(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, id, book) = (store, try request.contactID(), request.uri.queryParameters.get("to") ?? "")
        return try await Answer.json(writing: true) { try encode(["moved": try store.move(ids: [id], toBook: book)]) }
    }

    /// What the phone field shows for `text`, formatted as libphonenumber
    /// formats a number being typed in the database's first region. The
    /// field holds what was shown before, so the formatter is fed its
    /// digits and a leading "+": it stops formatting at any other
    /// character, as at a person's own hyphen.
    @Sendable func phoneFormat(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, typed) = (store, request.uri.queryParameters.get("text") ?? "")
        return try await Answer.json {
            let region = try store.phoneRegions().codes.first ?? "ZZ"
            let trimmed = typed.drop { $0 == " " }
            let digits = (trimmed.hasPrefix("+") ? "+" : "") + trimmed.filter { ("0"..."9").contains($0) }.prefix(32)
            return try encode(["shown": AsYouTypeFormatter(region: region).format(digits)])
        }
    }
}
