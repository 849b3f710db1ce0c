import ContactsDB
import Foundation
import GRDB

/// Groups through a sync (docs/sync.md, "Syncing with a CardDAV server"). A
/// group card the server holds is always taken in as its group; in the
/// `cards` convention the groups changed here are pushed as group cards,
/// and the members' own cards carry no CATEGORIES for them (a card's
/// CATEGORIES there are kept, as an extra property, and written back).
extension SyncSession {
    /// Stores a group card the server holds, merged with the group here
    /// (``GroupPullDecision``), and what both sides now agree on.
    func apply(href: String, etag: String?, _ card: GroupCard, _ writer: ContactWriter, _ db: Database) throws {
        var card = card
        let uid = card.uid ?? Self.stem(href)
        card.uid = uid
        let synced = try state.group(href: href, db) ?? state.group(uid: uid, db)
        // A group of the card's name is this card's only if it was never
        // sent to the server: one that was is another card there (two
        // clients made one name), and stays another group.
        let named = try synced == nil ? GroupWriter.card(named: card.name, book: state.book, db) : nil
        let unsent = try named.flatMap { $0.uid }.map { try state.group(uid: $0, db) == nil && state.groupPushes(uid: $0, db).isEmpty } ?? false
        let local = try GroupWriter.card(uid: uid, book: state.book, db) ?? (unsent ? named : nil)
        // A PUT that arrived before its answer was stored: the server holds
        // what was pushed, agreed on by both.
        let pushed = try state.groupPushes(uid: uid, db).contains(card.agreement)
        let base = pushed ? card.agreement : synced?.base
        switch GroupPullDecision.decide(base: base, local: local, server: card, prefer: prefer) {
        case .nothing: break
        case let .write(name, members):
            var written = card
            (written.name, written.members) = (name, members)
            if written.agreement != local?.agreement || written.properties != local?.properties {
                try writer.write(written, exactly: true, matchingName: local != nil, db)
                if local == nil { report.pulled.new += 1 } else { report.pulled.changed += 1 }
            }
        }
        try state.save(SyncedGroup(uid: uid, href: href, etag: etag, base: card.agreement), db)
    }

    /// A group card the server removed: its group goes too, unless it
    /// changed here (then it is pushed back). False for an href that holds
    /// no group card.
    func removeGroup(href: String, _ db: Database) throws -> Bool {
        guard let synced = try state.group(href: href, db) else { return false }
        try state.deleteGroup(uid: synced.uid, db)
        if let local = try GroupWriter.card(uid: synced.uid, book: state.book, db), local.agreement == synced.base {
            try GroupWriter.delete(uid: synced.uid, book: state.book, db)
            report.pulled.deleted += 1
        }
        return true
    }

    /// A remote whose convention is not known yet, or was only named and
    /// never synced, follows what its address book holds: a group card
    /// there (pulled by now) → cards; CATEGORIES on a card and no group
    /// card → categories; neither → the one named, else categories. One
    /// that differs from the one named is reported.
    func settleGroupConvention(named: GroupConvention?) throws {
        guard !dryRun else {
            groups = named
            return
        }
        try database.write { db in
            let found: GroupConvention = try !state.groups(db).isEmpty ? .cards
                : holdsCategories ? .categories : named ?? .categories
            try state.setGroupConvention(found, db)
            self.groups = found
            if let named, named != found { report.groupsFollowed = GroupConventionChange(named: named, found: found) }
        }
    }

    /// PUTs the groups changed here as group cards (If-Match, or
    /// If-None-Match: * for one the server never had) and DELETEs the
    /// cards of groups deleted here; a card the server changed meanwhile
    /// is pulled, merged and pushed once more.
    func pushGroups() throws {
        let notices = report.notices.count
        let retries = try sendGroupChanges()
        // A group given a UID of its own goes again at once.
        guard !retries.isEmpty || report.notices.count > notices else { return }
        if !retries.isEmpty { _ = try pullCards(retries) }
        let left = try sendGroupChanges()
        report.skipped += left.map { "\($0): the server changed it again during the sync; it is pushed at the next sync" }
    }

    /// Sends every group change once; returns the hrefs the server refused
    /// as changed there (412).
    private func sendGroupChanges() throws -> [String] {
        var puts: [(card: GroupCard, synced: SyncedGroup?, href: String)] = [], deletes: [SyncedGroup] = []
        try database.read { db in
            let local = try GroupWriter.cards(book: state.book, db)
            let synced = Dictionary(uniqueKeysWithValues: try state.groups(db).map { ($0.uid, $0) })
            for card in local {
                guard let uid = card.uid else { continue }
                let record = synced[uid]
                if record?.base == card.agreement { continue }
                puts.append((card, record, try record?.href ?? self.groupHref(uid, db)))
            }
            let uids = Set(local.compactMap(\.uid))
            deletes = synced.values.filter { !uids.contains($0.uid) }.sorted { $0.uid < $1.uid }
        }
        if dryRun {
            report.pushed.new += puts.filter { $0.synced == nil }.count
            report.pushed.changed += puts.filter { $0.synced != nil }.count
            report.pushed.deleted += deletes.count
            return []
        }
        try database.write { db in
            try state.saveGroupPushes(puts.compactMap { item in item.card.uid.map { ($0, item.card.agreement) } }, db)
        }
        let putRequests = puts.map { item in
            var request = PushRequest.put(url(item.href), .forPut(heldThere: item.synced != nil, etag: item.synced?.etag),
                                          body: item.card.vCard(version: version), name: "group \(item.card.name)",
                                          retry: item.href) { [state] etag, db in
                try state.save(SyncedGroup(uid: item.card.uid ?? "", href: item.href, etag: etag, base: item.card.agreement), db)
            }
            if item.synced == nil, let uid = item.card.uid {
                request.refused = { outcome, db in
                    guard case .uidTaken = outcome else { return nil }
                    return try self.renewUID(uid, of: item.card.name, db)
                }
            }
            return request
        }
        let deleteRequests = deletes.map { synced in
            PushRequest.delete(url(synced.href), etag: synced.etag, name: synced.href, retry: synced.href) { [state] _, db in
                try state.deleteGroup(uid: synced.uid, db)
            }
        }
        return try send(putRequests + deleteRequests)
    }

    /// A new group card the server refused as it holds another card of its
    /// UID (a contact's, which a group card of Apple's may share): the group
    /// takes a UID of its own, said once, and its card goes under it.
    private func renewUID(_ uid: String, of name: String, _ db: Database) throws -> String? {
        try state.deleteGroup(uid: uid, db)
        guard let renewed = try GroupWriter.renewUID(uid, book: state.book, db) else { return nil }
        return "group \(name): the server holds another card of its UID \(uid), so its card goes under a UID of its own, \(renewed)"
    }

    /// Where a group card the server never had goes: its uid's file name,
    /// so that a rerun after a crash picks the same href, unless a contact's
    /// card is there or would go there (a contact with the group's UID is
    /// another thing): then a digest of the uid.
    private func groupHref(_ uid: String, _ db: Database) throws -> String {
        let base = collection.path.hasSuffix("/") ? collection.path : collection.path + "/"
        if try state.card(href: base + CardFileName.of(uid), db) == nil,
           try ContactReader.stored(ids: [uid], db).first?.book != state.book {
            return base + CardFileName.of(uid)
        }
        return base + "group-" + Checksum.sha256(uid.utf8).prefix(40) + ".vcf"
    }

    // MARK: - The members' cards in the cards convention

    /// A pulled contact in the `cards` convention: its groups are the ones
    /// the group cards give it here, and the card's own CATEGORIES are
    /// kept as an extra property, written back as they came.
    static func keepingMembership(_ server: ContactDraft, _ groups: [String]) -> ContactDraft {
        var server = server
        if !server.groups.isEmpty { server.extra.append(VCardCategories.line(server.groups)) }
        server.groups = groups
        return server
    }
}
