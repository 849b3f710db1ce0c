import ContactsDB
import Foundation
import GRDB

/// Pulling: the cards the listing says changed, fetched, read and stored;
/// the cards it says went, removed.
extension SyncSession {
    func pull(token: String?) throws {
        var known: [String: String?] = [:], unconfirmed: [String: (contactId: String, etag: String?, isNew: Bool)] = [:]
        try database.read { db in
            (known, unconfirmed) = (try state.etags(db), try state.unconfirmedCards(db))
        }
        let listing = try list(since: token, known: Set(known.keys))
        keepsNoSyncToken = listing.token == nil
        let plan = ListingPlan.make(listing, known: known, unconfirmed: unconfirmed)
        for href in plan.unlisted.keys.sorted() {
            report.skipped.append("\(plan.unlisted[href]!): the server does not list its card \(href), which was pushed; it is pushed again")
        }
        if dryRun {
            confirmedInDryRun = Set(plan.confirmed.values)
            (report.pulled.new, report.pulled.changed, report.pulled.deleted) =
                (plan.new, plan.wanted.count - plan.new, plan.removed.count)
            return
        }
        if !plan.confirmed.isEmpty {
            try database.write { db in
                for href in plan.confirmed.keys { try state.confirmLastPush(href: href, db) }
            }
        }
        total = plan.wanted.count
        removedHrefs = Set(plan.removed)
        let isComplete = try pullCards(plan.wanted)
        // Removals last: a card the server moved to another href has moved
        // its sync record with it by now, so its contact stays.
        try database.write { db in
            for href in plan.removed { try self.remove(href: href, db) }
        }
        noteUnstableETags(fetched: plan.wanted.count - plan.new)
        // A card that could not be fetched or read is listed again next
        // time only if the token stays where it was.
        guard isComplete else { return }
        try database.write { db in try state.setSyncToken(listing.token, db) }
    }

    /// Fetches the cards at `hrefs` a batch at a time and stores each
    /// batch in one transaction; an href the server answers 404 or 410 for
    /// is a removed card. The import pipeline's stages (``BatchPipeline``):
    /// a reading thread fetches (the next batch's request already out while
    /// one is read), ``workers`` threads read, validate and derive the
    /// cards, and this thread writes them: the server's time, the reading
    /// and the writing overlap, and a bounded number of batches are in
    /// memory. Returns false when a card was not sent or could not be read
    /// (it is reported, and tried again at the next sync).
    ///
    /// A first pull too commits batch by batch, each batch with the sync
    /// records of its cards: killed, it keeps what it stored, and the next
    /// sync's listing fetches only the cards not stored yet, whatever the
    /// address book's size. Another writer waits at most one batch.
    @discardableResult
    func pullCards(_ hrefs: [String]) throws -> Bool {
        var isComplete = true
        try fetchAndRead(hrefs) { batch in
            try self.database.write { db in isComplete = try self.store(batch, try self.writer(db), db) && isComplete }
            self.done += batch.hrefs.count
            self.progress?(self.done, self.total)
        }
        return isComplete
    }

    /// Runs the pull's pipeline over `hrefs`, handing `write` each batch
    /// fetched and read, in order.
    func fetchAndRead(_ hrefs: [String], write: @escaping (ReadBatch) throws -> Void) throws {
        var stored = PhoneRegions.default
        try database.read { db in stored = try Settings.phoneRegions(db) }
        let regions = stored
        let batches = hrefs.chunked(into: Self.pullBatchSize).map(Array.init)
        let multiget = CardMultiget(client: client, collection: collection, version: version)
        try BatchPipeline<(hrefs: [String], answer: MultigetAnswer), ReadBatch>.run(
            capacity: min(workers, 3) + 1, workers: workers,
            read: { pipeline in
                var pending = batches.first.map(multiget.start)
                for (index, batch) in batches.enumerated() {
                    let next = index + 1 < batches.count ? multiget.start(batches[index + 1]) : nil
                    let answer = try multiget.answer(batch, pending!)
                    guard pipeline.put((batch, answer)) else { return }
                    pending = next
                }
            },
            prepare: { ReadBatch(hrefs: $0.hrefs, answer: $0.answer, regions: regions) },
            write: write)
    }

    /// Stores a batch's cards; false when one was not sent or could not be
    /// read.
    private func store(_ batch: ReadBatch, _ writer: ContactWriter, _ db: Database) throws -> Bool {
        if let overrun = batch.answer.overrun {
            throw ContactsDBError.remoteUnavailable(
                url: collection.absoluteString, reason: "its cards were not read within \(Int(overrun)) s (--timeout)")
        }
        var isComplete = true
        for href in batch.hrefs {
            if let card = batch.cards[href] {
                switch card.read {
                case let .success(.contact(draft, derived)):
                    try apply(href: href, etag: card.etag, draft, derived, writer, db)
                case let .success(.group(group)):
                    try apply(href: href, etag: card.etag, group, writer, db)
                case let .failure(error):
                    report.skipped.append("\(href): \(error.localizedDescription)")
                    unreadable.insert(href)
                    isComplete = false
                }
            } else if batch.answer.gone.contains(href) {
                try remove(href: href, db)
            } else if let reason = batch.answer.unreadable[href] {
                report.skipped.append("\(href): the server's answer for it cannot be read (\(reason)); it is asked for again at the next sync")
                isComplete = false
            } else {
                report.skipped.append("\(href): the server did not send it; it is asked for again at the next sync")
                isComplete = false
            }
        }
        return isComplete
    }

    /// A writer into the synced book, which takes a card whose UID is
    /// another book's contact's id under an id of its own.
    private func writer(_ db: Database) throws -> ContactWriter {
        let writer = try ContactWriter(db, book: state.book)
        writer.rehomingTakenIDs = true
        return writer
    }

    /// Stores a card the server holds: a new contact, a replacement of a
    /// contact unchanged here, or a merge with one changed here.
    private func apply(href: String, etag: String?, _ card: ContactDraft, _ derived: DerivedFields,
                       _ writer: ContactWriter, _ db: Database) throws {
        var server = card
        var synced = try state.card(href: href, db)
        var id = synced?.contactId ?? server.id ?? Self.stem(href)
        let holder = synced == nil ? try state.card(contactId: id, db) : nil
        switch CardIdentity.of(href: href, id: id, recordedAt: holder?.href, removed: removedHrefs) {
        case .same: break
        case .moved:
            synced = holder
            synced?.href = href
        case let .apart(apart, uid):
            (id, server.uid) = (apart, uid)
        }
        server.id = id
        // A contact of another book with this id is another card, taken in
        // under an id of its own (``ContactWriter/rehomingTakenIDs``),
        // unless it was moved from this book since the card's last sync.
        let stored = try ContactReader.stored(ids: [id], db).first.flatMap { found in
            CardIdentity.changes(contactIn: found.book, syncedBook: state.book, hasRecord: synced != nil) ? found : nil
        }
        let local = try stored.flatMap { try ContactReader.withChildren([$0], db).first }
        if !server.groups.isEmpty { holdsCategories = true }
        // The UID is the contact's, never a difference between the sides.
        if let local { server.uid = local.uid }
        if groups == .cards { server = Self.keepingMembership(server, local?.groups ?? []) }
        let agreed = try agreedVersion(synced, server: server)
        let base = try agreed.base.map { try ContactDraft.synced($0, at: href).membershipNeutral(like: server, in: groups) }
        if synced?.etag.map({ $0 != etag }) == true, synced?.pushes.isEmpty == true, let base, ContactMerge.isSame(base, server) {
            refetchedUnchanged += 1
        }
        // Keeping both, the server's version stays the contact.
        var decision = PullDecision.decide(isSynced: synced != nil, base: base, agreedRevision: agreed.revision,
                                           local: local.map { ($0.draft, $0.revision) }, server: server,
                                           prefer: conflicts == .keepBoth ? .server : prefer)
        let now = Date(), revision = try ChangeLog.revision(db)
        switch decision.write {
        case .nothing: break
        case .insert(let draft):
            id = try broughtBack(id, as: draft, at: now, writer, db)
                ?? writer.insert(draft, derived, at: href, now: Timestamp.string(from: now))
        case .replace(let draft):
            var unusual = UnusualValues()
            try writer.replaceKeepingHistory(pk: stored!.pk, try ContactValidator.imported(draft, at: href, counting: &unusual),
                                             createdAt: local!.createdAt, updatedAt: now, previous: local, db)
        }
        if conflicts == .keepBoth, let conflict = decision.conflict, !conflict.properties.isEmpty, var kept = conflict.losing {
            // The local version, a contact of its own: a new id and UID, a card of its own at the push.
            (kept.id, kept.uid) = (nil, nil)
            var unusual = UnusualValues()
            let copy = try writer.insert(try ContactValidator.imported(kept, at: href, counting: &unusual), at: href,
                                         now: Timestamp.string(from: now))
            try DuplicateKeys.recordKeptBoth(contactId: id, copyId: copy, db)
            decision.conflict = nil
            report.keptBoth += 1
        }
        try note(decision, id: id, at: now, db)
        try state.save(SyncedCard(contactId: id, href: href, etag: etag, revision: decision.revision ?? revision,
                                  base: decision.keepsAgreedBase ? agreed.base : server.jsonText), db)
    }

    /// A card whose contact was deleted here and is back (its edit there
    /// beat the deletion, or the server made it again) takes the contact
    /// out of the trash, so that it keeps its id and its history, and
    /// makes it the server's version by an update; nil when the trash
    /// holds no contact of this id from this book.
    private func broughtBack(_ id: String, as draft: ContactDraft, at now: Date, _ writer: ContactWriter,
                             _ db: Database) throws -> String? {
        guard let entry = try TrashedCards.entry(id: id, db), entry.row.bookId == state.book,
              try ContactReader.stored(ids: [id], db).isEmpty else { return nil }
        let (id, pk) = try TrashedCards.bringBack(entry, asNew: false, into: writer, db)
        let deleted = Contact(entry.draft, regions: try Settings.phoneRegions(db), book: entry.row.bookName,
                              createdAt: entry.row.createdAt, updatedAt: entry.row.updatedAt, revision: entry.row.revision)
        try writer.replaceKeepingHistory(pk: pk, draft, createdAt: entry.row.createdAt, updatedAt: now,
                                         previous: deleted, db)
        return id
    }

    /// The version both sides last agreed on, as stored JSON, and the
    /// contact's revision then (``PullDecision/agreed(recordHasBase:pushes:server:)``).
    private func agreedVersion(_ synced: SyncedCard?, server: ContactDraft) throws -> (base: String?, revision: Int?) {
        guard let synced else { return (nil, nil) }
        let pushes = try synced.pushes.map { try ContactDraft.synced($0.base, at: synced.href).membershipNeutral(like: server, in: groups) }
        switch PullDecision.agreed(recordHasBase: synced.base != nil, pushes: pushes, server: server) {
        case .record: return (synced.base, synced.revision)
        case .push(let index): return (synced.pushes[index].base, synced.pushes[index].revision)
        case .firstPushBase: return (synced.pushes[0].base, synced.revision)
        case .rewrittenPush(let index): return (server.jsonText, synced.pushes[index].revision)
        }
    }

    /// Counts what a pulled card did, and records its conflict.
    private func note(_ decision: PullDecision, id: String, at now: Date, _ db: Database) throws {
        switch decision.counted {
        case .none: break
        case .new: report.pulled.new += 1
        case .changed: report.pulled.changed += 1
        }
        if let conflict = decision.conflict {
            try record(SyncConflict(contactId: id, detectedAt: now, kept: conflict.kept, properties: conflict.properties,
                                    losing: conflict.losing), db)
        }
    }

    /// A card the server removed: the contact goes too, unless it changed
    /// here since the last sync (an edit beats a delete: it is pushed back).
    /// A card only pushed, its answer never stored, that the server now
    /// says it removed had arrived: another client deleted it.
    func remove(href: String, _ db: Database) throws {
        if try removeGroup(href: href, db) { return }
        guard let synced = try state.card(href: href, db) else { return }
        try state.deleteCard(contactId: synced.contactId, db)
        // A contact moved to another book since is that book's now.
        let stored = try ContactReader.stored(ids: [synced.contactId], db).first.flatMap { $0.book == state.book ? $0 : nil }
        let agreed = RemovalDecision.agreedRevision(record: synced.revision, hasBase: synced.base != nil,
                                                    lastPush: synced.pushes.last?.revision)
        switch RemovalDecision.decide(agreedRevision: agreed, localRevision: stored?.contact.revision) {
        case .forgetRecord: break
        case .keepEdited:
            try record(SyncConflict(contactId: synced.contactId, detectedAt: Date(), kept: .local, properties: [],
                                    losing: nil), db)
        case .deleteContact:
            try TrashedCards.keep([stored!.pk], by: .sync(remote: BookRecords.name(state.book, db)), db)
            try ContactWriter.delete([stored!.pk], db)
            report.pulled.deleted += 1
        }
    }

    private func record(_ conflict: SyncConflict, _ db: Database) throws {
        try state.insert(conflict, losing: conflict.losing?.jsonText, db)
        report.conflicts += 1
    }
}
