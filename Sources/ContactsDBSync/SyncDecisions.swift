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
        var result = server
        if isChangedHere {
            let merge = ContactMerge(base: base, local: local.draft, server: server, prefer: prefer)
            result = merge.merged
            if !merge.conflicting.isEmpty {
                decision.conflict = Conflict(kept: prefer, properties: merge.conflicting,
                                             losing: prefer == .server ? local.draft : server)
            }
        }
        let isReplaced = !ContactMerge.isSame(result, local.draft)
        if isReplaced { decision.write = .replace(result) }
        if !ContactMerge.isSame(result, server) {
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
    }

    /// Of the pushes whose answers were never stored (the sync died), the
    /// one the server holds exactly arrived; else a new card's first push
    /// arrived if the server holds any card at its href.
    static func agreed(recordHasBase: Bool, pushes: [ContactDraft], server: ContactDraft) -> Agreed {
        if let arrived = pushes.lastIndex(where: { ContactMerge.isSame($0, server) }) { return .push(arrived) }
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
    /// Anything else: reported, and tried again at the next sync.
    case refused(Int)

    static func ofPut(status: Int, isNew: Bool) -> PushOutcome {
        switch status {
        case 200..<300: return .stored
        case 412: return .changedThere
        case 404 where !isNew: return .changedThere
        default: return .refused(status)
        }
    }

    static func ofDelete(status: Int) -> PushOutcome {
        switch status {
        case 200..<300: return .stored
        case 404, 410: return .alreadyGone
        case 412: return .changedThere
        default: return .refused(status)
        }
    }
}

/// What a sync does with a group card the server holds (SPEC §Groups as
/// address books hold them), from values alone: the name and members both
/// sides last agreed on, the group here, and the server's card. Members
/// changed on both sides merge as a set: each side's additions are kept,
/// each side's removals made.
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
