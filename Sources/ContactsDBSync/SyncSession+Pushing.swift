import ContactsDB
import Foundation
import GRDB

/// Pushing: the contacts changed here since their last sync PUT, those
/// deleted here DELETEd, a batch at a time, each batch's outcome stored in
/// one transaction.
extension SyncSession {
    func push() throws {
        var changes: (new: [String], changed: [String], deleted: [String]) = ([], [], [])
        try database.read { db in changes = try state.localChanges(db) }
        if dryRun {
            (report.pushed.new, report.pushed.changed, report.pushed.deleted) =
                (changes.new.filter { !confirmedInDryRun.contains($0) }.count,
                 changes.changed.filter { !confirmedInDryRun.contains($0) }.count, changes.deleted.count)
            return
        }
        let ids = changes.new + changes.changed
        total = done + ids.count + changes.deleted.count
        var retries: [String] = []
        for batch in ids.chunked(into: Self.batchSize) { retries += try put(Array(batch)) }
        for batch in changes.deleted.chunked(into: Self.batchSize) { retries += try delete(Array(batch)) }
        // The server changed these since this sync listed them: pull each
        // again (merging), then push what the merge holds once more.
        guard !retries.isEmpty else { return }
        var stale: [String] = []
        try database.read { db in
            stale = try retries.map { id in try state.card(contactId: id, db)?.href ?? self.newHref(id, db) }
        }
        total += stale.count
        try pullCards(stale)
        try database.read { db in changes = try state.localChanges(db) }
        // A card that cannot be read is not pushed over.
        let again = Set(retries).subtracting(zip(retries, stale).filter { unreadable.contains($0.1) }.map(\.0))
        for batch in (changes.new + changes.changed).filter(again.contains).chunked(into: Self.batchSize) {
            let left = try put(Array(batch))
            report.skipped += left.map { "\($0): the server changed it again during the sync; it is pushed at the next sync" }
        }
    }

    /// PUTs the contacts, several at once, each recorded as under way
    /// first; returns the ids the server refused because its card changed
    /// (412).
    private func put(_ ids: [String]) throws -> [String] {
        var requests: [PushRequest] = [], unchanged: [SyncedCard] = []
        var pushes: [(contactId: String, href: String, revision: Int, base: String)] = []
        try database.read { db in
            for contact in try ContactReader.contacts(ids: ids, db) {
                let synced = try state.card(contactId: contact.id, db)
                guard case .send(let precondition) = try PutDecision.decide(record: synced, contact: contact.draft, groups: groups)
                else {
                    if var synced {
                        synced.revision = contact.revision
                        unchanged.append(synced)
                    }
                    continue
                }
                let href = try synced?.href ?? self.newHref(contact.id, db), json = contact.draft.jsonText
                pushes.append((contact.id, href, contact.revision, json))
                let body = contact.vCard(version: version, categories: groups != .cards)
                // Answered, the push stays unconfirmed until a listing shows
                // it (``ListingPlan``): a server that answers 2xx and keeps
                // nothing would otherwise revert the edit at the next pull.
                var request = PushRequest.put(url(href), precondition, body: body, name: contact.id, retry: contact.id) { [state] etag, db in
                    try state.saveAnsweredPush(contactId: contact.id, etag: etag, db)
                }
                // A refused push never arrived: it is no version the server
                // may hold (a new card refused stays new, and unlisted
                // unsaid), and the ETag it was sent against is the card's.
                request.refused = { [state] _, db in
                    try state.forgetPush(contactId: contact.id, revision: contact.revision, etag: precondition.etag, db)
                    return nil
                }
                requests.append(request)
            }
        }
        try database.write { db in
            for card in unchanged { try state.save(card, db) }
            try state.savePushes(pushes, db)
        }
        let retries = try send(requests)
        done += ids.count
        progress?(done, total)
        return retries
    }

    /// DELETEs the cards of contacts deleted here; returns the ids whose
    /// card the server changed since (412), which come back.
    private func delete(_ ids: [String]) throws -> [String] {
        var cards: [SyncedCard] = []
        try database.read { db in cards = try ids.compactMap { try state.card(contactId: $0, db) } }
        let retries = try send(cards.map { card in
            PushRequest.delete(url(card.href), etag: card.etag, name: card.contactId, retry: card.contactId) { [state] _, db in
                try state.deleteCard(contactId: card.contactId, db)
            }
        })
        done += ids.count
        progress?(done, total)
        return retries
    }

    /// Sends the requests, several at once, and records in one transaction
    /// each card the server took (``PushOutcome``), counting it, and each
    /// it refused in the report; returns the `retry` of each whose card
    /// the server changed since it was listed.
    func send(_ requests: [PushRequest]) throws -> [String] {
        let answers = try client.sendAll(requests.map(\.request))
        var taken: [(request: PushRequest, etag: String?, counts: Bool)] = [], retries: [String] = []
        var refused: [(request: PushRequest, outcome: PushOutcome)] = []
        for (request, answer) in zip(requests, answers) {
            let outcome = PushOutcome.of(request.kind, status: answer.status, body: answer.body)
            switch outcome {
            case .stored:
                taken.append((request, answer.etag, true))
                if request.kind != .deleted {
                    pushedHrefs.append(request.request.url.path)
                    if answer.etag == nil { rewrittenHrefs.append(request.request.url.path) }
                }
            case .alreadyGone: taken.append((request, answer.etag, false))
            case .changedThere: retries.append(request.retry)
            case .uidTaken, .tooLarge, .refused: refused.append((request, outcome))
            }
        }
        try database.write { db in
            for item in taken {
                try item.request.record(item.etag, db)
                guard item.counts else { continue }
                switch item.request.kind {
                case .new: self.report.pushed.new += 1
                case .changed: self.report.pushed.changed += 1
                case .deleted: self.report.pushed.deleted += 1
                }
            }
            for (request, outcome) in refused {
                if let notice = try request.refused(outcome, db) {
                    self.report.notices.append(notice)
                } else {
                    self.report.skipped.append(Self.refusal(of: request, outcome))
                }
            }
        }
        return retries
    }

    /// What the report says of a push the server refused.
    private static func refusal(of request: PushRequest, _ outcome: PushOutcome) -> String {
        switch (outcome, request.kind) {
        case let (.uidTaken(status), _):
            return "\(request.name): the server refused it (\(status)) as it holds another card of its UID; it is pushed again "
                + "at the next sync (merge the contacts of that UID, or copy this one for a UID of its own)"
        case let (.tooLarge(status), _):
            return "\(request.name): the server refused it (\(status)) as larger than it takes (a card of \(request.request.body?.utf8.count ?? 0) "
                + "bytes); it stays here, and is pushed again at the next sync"
        case let (.refused(status), .deleted):
            return "\(request.name): the server refused its deletion (\(status)); it is tried again at the next sync"
        case let (.refused(status), _):
            return "\(request.name): the server refused it (\(status)); it is pushed again at the next sync"
        default:
            return "\(request.name): the server refused it; it is pushed again at the next sync"
        }
    }
}

/// A card's PUT or DELETE, and how its sync record follows once the
/// server has taken it.
struct PushRequest {
    var kind: PushKind
    var request: DAVRequest
    /// The card as a refusal names it in the report.
    var name: String
    /// What comes back when the server's card changed meanwhile.
    var retry: String
    /// Records the card as the server now holds it, with the ETag its
    /// answer gave, or as gone.
    var record: (_ etag: String?, _ db: Database) throws -> Void
    /// Records what follows a refusal (``PushOutcome/uidTaken(_:)`` or
    /// ``PushOutcome/refused(_:)``); returns what to say once instead of
    /// reporting the card as not synced, or nil.
    var refused: (_ outcome: PushOutcome, _ db: Database) throws -> String? = { _, _ in nil }

    /// A PUT of a card: new where the precondition is that there is none.
    static func put(_ url: URL, _ precondition: Precondition, body: String, name: String, retry: String,
                    record: @escaping (String?, Database) throws -> Void) -> PushRequest {
        PushRequest(kind: precondition == .ifNoneMatch ? .new : .changed,
                    request: DAVRequest(method: "PUT", url: url, headers: [("Content-Type", "text/vcard; charset=utf-8"),
                                                                          precondition.header], body: body),
                    name: name, retry: retry, record: record)
    }

    /// A DELETE of the card of this ETag, as last seen.
    static func delete(_ url: URL, etag: String?, name: String, retry: String,
                       record: @escaping (String?, Database) throws -> Void) -> PushRequest {
        PushRequest(kind: .deleted, request: DAVRequest(method: "DELETE", url: url, headers: [Precondition.forDelete(etag: etag).header]),
                    name: name, retry: retry, record: record)
    }
}
