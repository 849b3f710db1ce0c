import ContactsDB
import Foundation
import GRDB

/// Settling: the cards this sync pushed that the next listing could not
/// tell apart from another client's change, fetched before the sync ends.
extension SyncSession {
    /// A PUT answered without an ETag is a card the server rewrote (RFC
    /// 6352 §6.3.2.3 leaves the ETag out then; DAViCal does so for every
    /// card, having added REV, upper-cased names and dropped quotes): the
    /// card fetched now is the push as the server holds it, and becomes
    /// the version both sides agreed on while the contact here stays as it
    /// is, so the next sync neither fetches it nor counts it changed. On a
    /// server that keeps no sync-token, every card pushed is fetched too:
    /// its next listing is a PROPFIND, which cannot tell a card never
    /// stored from one another client deleted, and a pushed card known
    /// to have arrived is deleted here when it goes (docs/sync.md, "Servers
    /// that do not follow the RFCs").
    func settlePushes() throws {
        guard !dryRun else { return }
        var seen: Set<String> = []
        let hrefs = (keepsNoSyncToken ? pushedHrefs : rewrittenHrefs).filter { seen.insert($0).inserted }
        guard !hrefs.isEmpty else { return }
        try fetchAndRead(hrefs) { read in
            try self.database.write { db in
                for href in read.hrefs {
                    guard let card = read.cards[href], case let .success(.contact(draft, _)) = card.read else { continue }
                    try self.settle(href: href, etag: card.etag, draft, db)
                }
            }
        }
    }

    /// The card at `href` as fetched right after its push: the push itself
    /// (the ETag its answer gave), or the server's rewrite of it (no ETag
    /// was given). A card another client changed meanwhile (another ETag
    /// than the one answered) is left to the next sync's merge.
    private func settle(href: String, etag: String?, _ server: ContactDraft, _ db: Database) throws {
        guard let synced = try state.card(href: href, db), let last = synced.pushes.last, let etag else { return }
        if synced.etag == etag {
            try state.confirmLastPush(href: href, db)
            return
        }
        guard synced.etag == nil else { return }
        let pushed = try ContactDraft.synced(last.base, at: href)
        let before = try synced.base.map { try ContactDraft.synced($0, at: href) }
        guard RewrittenPush.holds(pushed.membershipNeutral(like: server, in: groups),
                                  over: before?.membershipNeutral(like: server, in: groups), fetched: server) else { return }
        var agreed = server
        (agreed.id, agreed.uid) = (pushed.id, pushed.uid)
        if groups == .cards { agreed.groups = pushed.groups }
        try state.save(SyncedCard(contactId: synced.contactId, href: href, etag: etag, revision: last.revision,
                                  base: agreed.jsonText), db)
    }
}

extension SyncSession {
    /// Says once when most cards fetched for a new ETag held nothing new:
    /// the server rewrites cards as it serves them, so each sync fetches
    /// them again (nothing of them is counted or written).
    func noteUnstableETags(fetched: Int) {
        guard refetchedUnchanged >= 10, refetchedUnchanged * 10 >= fetched * 9 else { return }
        report.notices.append("the server gave \(refetchedUnchanged) cards a new ETag with nothing in them changed "
            + "(it rewrites cards as it serves them), so each sync fetches them again; nothing of them is counted or written")
    }
}
