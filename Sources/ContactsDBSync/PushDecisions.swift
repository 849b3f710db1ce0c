import ContactsDB
import Foundation

/// What a push sends: a card's PUT, or its DELETE.
enum PushKind: Equatable {
    /// A PUT of a card the server never had.
    case new
    /// A PUT over the card the server holds.
    case changed
    case deleted
}

/// What a push does with a contact changed here, from values alone: its
/// sync record, the contact, and how the remote keeps groups.
enum PutDecision: Equatable {
    /// Changed only as the change counter sees it (a group card gained it
    /// as a member): the server's card says it all, and the record only
    /// takes the contact's revision.
    case recordOnly
    /// Sent with this precondition.
    case send(Precondition)

    /// - parameter record: the contact's sync record, nil for a contact
    ///   the server never had.
    /// - throws: ``ContactsDBError/databaseFailure(reason:)`` when the
    ///   version the record stores cannot be read.
    static func decide(record: SyncedCard?, contact: ContactDraft, groups: GroupConvention?) throws -> PutDecision {
        if let record, let base = record.base, record.pushes.isEmpty,
           ContactMerge.isSame(try ContactDraft.synced(base, at: record.href).membershipNeutral(like: contact, in: groups), contact) {
            return .recordOnly
        }
        return .send(.forPut(heldThere: record?.base != nil, etag: record?.etag))
    }
}

/// The condition a PUT or DELETE puts on the server's card.
enum Precondition: Equatable {
    /// Only the card of this ETag (`*`: any card).
    case ifMatch(String)
    /// Only where no card is.
    case ifNoneMatch

    /// A card the server holds is replaced only as last seen: If-Match its
    /// ETag, or without one (a server that sends none) at least not a card
    /// another client deleted; a new card replaces none.
    static func forPut(heldThere: Bool, etag: String?) -> Precondition {
        heldThere ? .ifMatch(etag ?? "*") : .ifNoneMatch
    }

    /// A DELETE removes only the card last seen.
    static func forDelete(etag: String?) -> Precondition {
        .ifMatch(etag ?? "*")
    }

    /// The ETag it names, nil for none or any.
    var etag: String? {
        if case .ifMatch(let etag) = self, etag != "*" { return etag }
        return nil
    }

    var header: (String, String) {
        switch self {
        case .ifMatch(let etag): return ("If-Match", etag)
        case .ifNoneMatch: return ("If-None-Match", "*")
        }
    }
}

/// What the answer to a PUT or DELETE means for its card.
enum PushOutcome: Equatable {
    /// Stored (2xx): the card is synced as sent.
    case stored
    /// A DELETE of a card already gone (404, 410): nothing left to do.
    case alreadyGone
    /// The server's card changed since it was listed (412, or 404 for a
    /// known card's PUT): pull it, merge, push again.
    case changedThere
    /// A PUT the server refused as it holds another card of its UID and
    /// takes no second (CardDAV's `no-uid-conflict`, RFC 6352 §6.3.2.1:
    /// Radicale answers 409, Xandikos 412): nothing changed there, so
    /// nothing is pulled for it, and its card is not taken for removed.
    case uidTaken(Int)
    /// A PUT the server refused as larger than it takes (413, or CardDAV's
    /// `max-resource-size` precondition, RFC 6352 §6.3.2.1): the contact
    /// stays here, said with its size, and is pushed again at the next sync.
    case tooLarge(Int)
    /// Anything else: reported, and tried again at the next sync.
    case refused(Int)

    /// - parameter body: the answer's, read for the precondition it names.
    static func of(_ kind: PushKind, status: Int, body: Data = Data()) -> PushOutcome {
        if kind != .deleted, [403, 409, 412].contains(status), body.range(of: Data("no-uid-conflict".utf8)) != nil {
            return .uidTaken(status)
        }
        if kind != .deleted, status == 413 || ([403, 507].contains(status) && body.range(of: Data("max-resource-size".utf8)) != nil) {
            return .tooLarge(status)
        }
        switch (status, kind) {
        case (200..<300, _): return .stored
        case (412, _), (404, .changed): return .changedThere
        case (404, .deleted), (410, .deleted): return .alreadyGone
        default: return .refused(status)
        }
    }
}

/// Whether a card fetched right after a PUT answered without an ETag is
/// that push as the server rewrote it (``SyncSession/settlePushes()``),
/// from values alone. A server may also answer 2xx and keep nothing: a
/// changed card it still holds as before is no rewrite of the edit. So
/// each property the push changed must differ from the version agreed
/// before; a new card has none.
enum RewrittenPush {
    static func holds(_ push: ContactDraft, over agreed: ContactDraft?, fetched: ContactDraft) -> Bool {
        guard let agreed else { return true }
        return ContactField.all.allSatisfy { field in
            field.value(push) == field.value(agreed) || field.value(fetched) != field.value(agreed)
        }
    }
}
