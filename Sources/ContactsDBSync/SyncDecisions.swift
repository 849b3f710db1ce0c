import ContactsDB
import Foundation

/// What a sync does with a card the server holds, decided from values
/// alone: the contact here (if any), the server's card, the version both
/// last agreed on, and which side wins a property both changed. The
/// session reads those and writes what this says; the rules live here.
struct PullDecision: Equatable {
    enum Write: Equatable {
        case nothing
        /// A contact the database lacks (new there, or edited there after
        /// a deletion here).
        case insert(ContactDraft)
        /// The contact here, replaced by the server's card or the merge.
        case replace(ContactDraft)
    }

    /// A conflict to record: the side kept, the properties both changed
    /// (none when an edit beat a deletion), the losing version.
    struct Conflict: Equatable {
        var kept: SyncPreference
        var properties: [String]
        var losing: ContactDraft?
    }

    enum Counted: Equatable {
        case none, new, changed
    }

    var write: Write = .nothing
    var conflict: Conflict?
    /// The contact's synced revision the record stores: the one both
    /// sides agreed on (what is left is pushed) or the contact's now
    /// (nothing to push); nil for the revision the write makes.
    var revision: Int?
    /// The base stored with the record: the server's card, or the agreed
    /// version when a deletion here is still to be pushed.
    var keepsAgreedBase = false

    /// How the pull reports it: an insert is new unless it beat a deletion
    /// here (a conflict), a replacement is a change.
    var counted: Counted {
        switch write {
        case .nothing: return .none
        case .insert: return conflict == nil ? .new : .changed
        case .replace: return .changed
        }
    }

    /// - parameter isSynced: whether a sync record existed for the card.
    /// - parameter base: the version both sides last agreed on, if known.
    /// - parameter agreedRevision: the contact's revision then.
    /// - parameter local: the contact here and its revision; nil when it
    ///   is not here (deleted here, or never pulled).
    static func decide(isSynced: Bool, base: ContactDraft?, agreedRevision: Int?, local: (draft: ContactDraft, revision: Int)?,
                       server: ContactDraft, prefer: SyncPreference) -> PullDecision {
        var decision = PullDecision()
        guard let local else {
            if isSynced, let base, ContactMerge.isSame(base, server) {
                // Deleted here, unchanged there: the deletion is pushed.
                decision.revision = agreedRevision ?? 0
                decision.keepsAgreedBase = true
                return decision
            }
            decision.write = .insert(server)
            if isSynced {
                // Deleted here, changed there: the edit wins.
                decision.conflict = Conflict(kept: .server, properties: [], losing: nil)
            }
            return decision
        }
        let isChangedHere = agreedRevision.map { local.revision > $0 } ?? true
        // Unchanged here yet not the agreed version: the server rewrote
        // the card when it was pushed, and the contact keeps its own
        // spelling where the server's card is still that rewrite.
        let isRewritten = !isChangedHere && base.map { !ContactMerge.isSame($0, local.draft) } == true
        var result = server
        if isChangedHere || isRewritten {
            let merge = ContactMerge(base: base, local: local.draft, server: server, prefer: prefer)
            result = merge.merged
            if !merge.conflicting.isEmpty {
                decision.conflict = Conflict(kept: prefer, properties: merge.conflicting,
                                             losing: prefer == .server ? local.draft : server)
            }
        }
        let isReplaced = !ContactMerge.isSame(result, local.draft)
        if isReplaced { decision.write = .replace(result) }
        if isChangedHere, !ContactMerge.isSame(result, server) {
            // The merge holds what the server lacks: push it.
            decision.revision = agreedRevision ?? 0
        } else if !isReplaced {
            decision.revision = local.revision
        }
        return decision
    }

    /// Which version both sides last agreed on.
    enum Agreed: Equatable {
        /// The sync record's own base and revision.
        case record
        /// The push at this index, which the server holds exactly: its
        /// answer was lost, but it arrived.
        case push(Int)
        /// A new card none of whose pushes the server holds as sent: the
        /// first push, as the base to merge from, at the record's revision.
        case firstPushBase
        /// The push at this index as the server rewrote it (a new ETag at
        /// the next listing, only its spelling changed): the server's card
        /// is the agreed version, at that push's revision.
        case rewrittenPush(Int)
    }

    /// Of the pushes whose answers were never stored (the sync died), the
    /// one the server holds exactly arrived; else a new card's first push
    /// arrived if the server holds any card at its href.
    static func agreed(recordHasBase: Bool, pushes: [ContactDraft], server: ContactDraft) -> Agreed {
        if let arrived = pushes.lastIndex(where: { ContactMerge.isSame($0, server) }) { return .push(arrived) }
        if let rewritten = pushes.lastIndex(where: { ContactMerge.isRespelling(server, of: $0) }) { return .rewrittenPush(rewritten) }
        return !recordHasBase && !pushes.isEmpty ? .firstPushBase : .record
    }
}

/// What a card the server removed does to the contact here.
enum RemovalDecision: Equatable {
    /// Only the sync record goes: the server was never known to hold the
    /// card (it is pushed again as new), or the contact is gone here too.
    case forgetRecord
    /// Unchanged here since the version the server removed: it goes too.
    case deleteContact
    /// Changed here since: an edit beats a deletion, and it is pushed back.
    case keepEdited

    /// - parameter agreedRevision: the contact's revision when the server
    ///   last held its card (confirmed, or a push that may have arrived);
    ///   nil when the server was never known to hold it.
    static func decide(agreedRevision: Int?, localRevision: Int?) -> RemovalDecision {
        guard let agreedRevision, let localRevision else { return .forgetRecord }
        return localRevision > agreedRevision ? .keepEdited : .deleteContact
    }

    /// The revision a removal is weighed against: that of the last push
    /// under way (answered as stored, or perhaps arrived), else the
    /// record's where the server is known to hold the card; nil when it
    /// never was. Another client that deleted the card saw that push.
    static func agreedRevision(record: Int, hasBase: Bool, lastPush: Int?) -> Int? {
        lastPush ?? (hasBase ? record : nil)
    }
}

/// What a sync does with a group card the server holds (docs/sync.md,
/// "Syncing with a CardDAV server"), from values alone: the name and
/// members both sides last agreed on, the group here, and the server's
/// card. Members changed on both sides merge as a set: each side's
/// additions are kept, each side's removals made.
enum GroupPullDecision: Equatable {
    /// Leave the group here as it is (deleted here, unchanged there: the
    /// deletion is pushed).
    case nothing
    /// Write the group with this name and exactly these members.
    case write(name: String, members: [String])

    /// - parameter base: the agreement stored with the sync record, nil
    ///   without one.
    /// - parameter local: the group here, nil when there is none.
    static func decide(base: String?, local: GroupCard?, server: GroupCard, prefer: SyncPreference) -> GroupPullDecision {
        let theirs = (name: server.name, members: Set(server.members))
        guard let local else {
            // Deleted here: an edit there beats it.
            return base == server.agreement ? .nothing : .write(name: server.name, members: server.members.sorted())
        }
        let ours = (name: local.name, members: Set(local.members))
        guard let base else {
            // Both made it: every member either side has.
            let name = prefer == .server ? theirs.name : ours.name
            return .write(name: name, members: ours.members.union(theirs.members).sorted())
        }
        let agreed = GroupCard.agreed(base)
        if local.agreement == base { return .write(name: theirs.name, members: theirs.members.sorted()) }
        let name = ours.name == agreed.name ? theirs.name
            : theirs.name == agreed.name ? ours.name
            : prefer == .server ? theirs.name : ours.name
        let members = theirs.members.union(ours.members.subtracting(agreed.members))
            .subtracting(agreed.members.subtracting(ours.members))
        return .write(name: name, members: members.sorted())
    }
}

/// The address book's members as a listing gives them.
struct CardListing {
    var members: [(href: String, etag: String?)] = []
    var removed: [String] = []
    /// Whether `members` is every member, so that a known card not
    /// among them was removed.
    var isComplete = false
    var token: String?

    /// The parts of a truncated answer (RFC 6578 §3.6) as one listing,
    /// each href as the last part that names it says: a card removed and
    /// then made again at one href is a member, one made and then removed
    /// is removed.
    static func joining(_ parts: [CardListing], isComplete: Bool, token: String?) -> CardListing {
        var last: [String: Int] = [:]
        for (index, part) in parts.enumerated() {
            for member in part.members { last[member.href] = index }
            for href in part.removed { last[href] = index }
        }
        var listing = CardListing(isComplete: isComplete, token: token)
        for (index, part) in parts.enumerated() {
            listing.members += part.members.filter { last[$0.href] == index }
            listing.removed += part.removed.filter { last[$0] == index }
        }
        return listing
    }
}

extension CardListing {
    /// Whether this sync-collection answer since `token` may be every card
    /// the server holds rather than the changes since: RFC 6578 §3.2 has a
    /// server refuse a token it no longer knows (403), but DAViCal answers
    /// one it dropped (after a week) with every card, as new, and no
    /// removal. So an answer that names no removal and either names at
    /// least half the cards known here, or none under a new token (the
    /// address book emptied meanwhile), is checked against a whole
    /// listing. A real answer of that shape (half the book changed, or
    /// pushed by the sync before) costs one PROPFIND more.
    func mayListEverything(since token: String, known: Set<String>) -> Bool {
        guard removed.isEmpty, !known.isEmpty else { return false }
        let listedKnown = members.lazy.filter { known.contains($0.href) }.count
        return listedKnown * 2 >= known.count || (members.isEmpty && self.token != token)
    }
}

/// What a listing asks of a pull, from values alone: the listing, the
/// ETags the sync records hold, and the cards pushed that no listing has
/// shown since.
struct ListingPlan: Equatable {
    /// Cards whose last PUT the listing shows arrived: href → contact id.
    var confirmed: [String: String] = [:]
    /// The hrefs to fetch: unknown here, or listed with another ETag or
    /// none.
    var wanted: [String] = []
    /// How many of `wanted` are unknown here.
    var new = 0
    /// The hrefs whose card the server removed.
    var removed: [String] = []
    /// Pushed cards a whole listing lacks, href → contact id: never
    /// listed, so never deleted there; pushed again as new.
    var unlisted: [String: String] = [:]

    /// - parameter known: the ETag of each href a sync record holds (none
    ///   while a push of it is under way and unanswered).
    /// - parameter unconfirmed: the cards pushed and not yet listed, by
    ///   href, with the ETag their last PUT's answer gave, and whether the
    ///   server never held them.
    static func make(_ listing: CardListing, known: [String: String?],
                     unconfirmed: [String: (contactId: String, etag: String?, isNew: Bool)]) -> ListingPlan {
        var plan = ListingPlan(), known = known, unconfirmed = unconfirmed
        // A PUT is known to have arrived only once a listing shows the
        // ETag its answer gave: a server may answer 2xx and keep nothing,
        // and a changed card's edit is then still to push, not reverted.
        for member in listing.members where member.etag != nil && unconfirmed[member.href]?.etag == member.etag {
            plan.confirmed[member.href] = unconfirmed.removeValue(forKey: member.href)?.contactId
            known[member.href] = member.etag
        }
        var removed = listing.removed
        if listing.isComplete {
            let present = Set(listing.members.map(\.href))
            removed = known.keys.filter { !present.contains($0) }.sorted()
            for (href, card) in unconfirmed where card.isNew && !present.contains(href) { plan.unlisted[href] = card.contactId }
        }
        let wanted = listing.members.filter { member in
            guard let stored = known[member.href] else { return true }
            return member.etag == nil || stored != member.etag
        }
        plan.wanted = wanted.map(\.href)
        plan.new = wanted.filter { known[$0.href] == nil }.count
        // A server's word that a card only pushed is gone counts too (its
        // PUT arrived); the absence from a whole listing does not (it may
        // never have).
        plan.removed = removed.filter { known[$0] != nil || (!listing.isComplete && unconfirmed[$0] != nil) }
        return plan
    }
}

/// Which contact a pulled card is. Its sync record's, else the one of its
/// UID (its file name without one); when another href's record holds
/// that contact, the card was moved there on the server if this pull
/// found that href removed, and else two cards share one UID.
enum CardIdentity: Equatable {
    /// The contact of the id as given.
    case same
    /// Moved on the server: the record at `from` follows the card.
    case moved(from: String)
    /// The second card of a UID: a contact of its own under `id`, its
    /// card's `uid` kept to be written back.
    case apart(id: String, uid: String)

    /// - parameter id: the contact id of the record at `href`, else the
    ///   card's UID, else its file name.
    /// - parameter recordedAt: where the record of contact `id` points,
    ///   when no record holds `href`.
    /// - parameter removed: the hrefs this pull found removed.
    static func of(href: String, id: String, recordedAt: String?, removed: Set<String>) -> CardIdentity {
        guard let recordedAt, recordedAt != href else { return .same }
        return removed.contains(recordedAt) ? .moved(from: recordedAt) : .apart(id: id + "#" + SyncSession.stem(href), uid: id)
    }

    /// Whether the contact of a pulled card's id, found in `contactBook`,
    /// is the one the card changes: a contact of the synced book, or one
    /// moved out of it since its card's last sync (a record here still
    /// holds it). A move's card changed there meanwhile is the moved
    /// contact's edit, which follows it to its new book while the card
    /// here is still deleted; a contact of another book with no record
    /// here is another card of one UID (two accounts).
    static func changes(contactIn contactBook: BookID, syncedBook: BookID, hasRecord: Bool) -> Bool {
        contactBook == syncedBook || hasRecord
    }
}

extension ContactDraft {
    /// A version stored with a sync record. One that cannot be read is a
    /// damaged database, not a difference: every property would conflict.
    static func synced(_ json: String, at href: String) throws -> ContactDraft {
        do {
            return try ContactJSON.decode(Data(json.utf8), source: href).draft
        } catch {
            throw ContactsDBError.databaseFailure(reason: "the synced version of \(href) cannot be read (\(error.localizedDescription))")
        }
    }

    /// This version compared in the `cards` convention with the groups of
    /// `other`: membership travels in the group cards, never as a change
    /// of the contact.
    func membershipNeutral(like other: ContactDraft, in convention: GroupConvention?) -> ContactDraft {
        guard convention == .cards else { return self }
        var draft = self
        draft.groups = other.groups
        return draft
    }
}
