import ContactsDB
import Foundation
import GRDB

/// The database as a sync reads and writes it: each write one transaction
/// that advances the change counter, errors mapped as every write's are.
struct SyncDatabase {
    var read: ((Database) throws -> Void) throws -> Void
    var write: ((Database) throws -> Void) throws -> Void
}

/// One two-way sync with the remote (SPEC §CardDAV sync).
///
/// Pull first: the members changed since the stored sync-token (RFC
/// 6578), or every member's ETag where the server keeps no token or
/// forgot ours; the cards whose ETag differs from the one stored,
/// fetched by addressbook-multiget a batch at a time, each batch applied
/// in one transaction (a new card added, a changed one replacing an
/// unchanged contact or merged with a changed one, a removed one deleting
/// an unchanged contact), or every batch in one when the database is
/// empty; the new token stored last. Then push: the
/// contacts changed after their last sync, PUT with If-Match (If-None-Match:
/// * for a card the server never had), and the deletions, DELETE with
/// If-Match, a batch at a time, each batch's outcome stored in one
/// transaction.
///
/// Killed at any moment, the next run finds each card in one of the
/// states above: a card the server already has is known by its ETag or by
/// its UID, so nothing is added twice; a change not yet recorded as
/// synced is still newer than its record, so nothing is lost.
final class SyncSession {
    let database: SyncDatabase
    /// The book synced, and what its remote holds.
    let state: SyncState
    let client: DAVClient
    let collection: URL
    let version: VCardVersion
    let prefer: SyncPreference
    let dryRun: Bool
    /// Threads that read and derive pulled cards (``ContactStore/Options/workers``).
    let workers: Int
    private let progress: ((Int, Int) -> Void)?
    var report = SyncReport()
    /// How the remote keeps groups; nil until this sync finds it.
    var groups: GroupConvention?
    /// Hrefs a server named outside the address book, each reported once.
    private var outsideHrefs: Set<String> = []
    private var done = 0, total = 0
    /// Hrefs this pull found removed: one of them holding a card that now
    /// turns up at another href was moved, not deleted.
    private var moved: Set<String> = []
    /// Hrefs whose card could not be read: not pushed over.
    private var unreadable: Set<String> = []
    /// Whether a card pulled carried CATEGORIES.
    var holdsCategories = false
    /// New cards a dry run's listing shows arrived: not to be pushed.
    private var confirmedInDryRun: Set<String> = []

    /// Contacts pushed before their outcome is stored.
    static let batchSize = 100
    /// Cards fetched by one addressbook-multiget: a server answers fewer,
    /// larger requests faster (Radicale 10,000 cards in 1.65 s by 500s
    /// against 2.25 s by 100s). At most four batches wait between fetching
    /// and writing whatever the workers (a pull waits on the server more
    /// than on them), with one fetched ahead and one being written: with
    /// photos of 100 KB, about 150 MB.
    static let pullBatchSize = 250

    init(database: SyncDatabase, state: SyncState, client: DAVClient, collection: URL, version: VCardVersion,
         prefer: SyncPreference, groups: GroupConvention?, dryRun: Bool, workers: Int, progress: ((Int, Int) -> Void)?) {
        self.state = state
        self.groups = groups
        self.workers = workers
        self.database = database
        self.client = client
        self.collection = collection
        self.version = version
        self.prefer = prefer
        self.dryRun = dryRun
        self.progress = progress
    }

    /// - parameter isFirst: whether the remote never finished a sync: the
    ///   convention `remote add --groups` named is checked against what
    ///   the address book holds.
    func run(token: String?, isFirst: Bool = false) throws -> SyncReport {
        let named = groups
        var isSettled = groups != nil
        if isFirst, isSettled { try database.read { db in isSettled = try !state.holdsNoSyncedCard(db) } }
        // Unsettled, a pull takes CATEGORIES as groups and group cards as
        // groups, whichever the address book holds.
        if !isSettled { groups = nil }
        try pull(token: token)
        if !isSettled { try settleGroupConvention(named: named) }
        try push()
        if groups == .cards { try pushGroups() }
        return report
    }

    // MARK: - Pulling

    private struct Listing {
        var members: [(href: String, etag: String?)] = []
        var removed: [String] = []
        /// Whether `members` is every member, so that a known card not
        /// among them was removed.
        var isComplete = false
        var token: String?
    }

    private func pull(token: String?) throws {
        var listing = try list(since: token)
        var known: [String: String?] = [:], unconfirmed: [String: (contactId: String, etag: String?)] = [:], isEmpty = false
        try database.read { db in
            (known, unconfirmed, isEmpty) = (try state.etags(db), try state.unconfirmedCards(db), try state.isEmpty(db))
        }
        // A new card's PUT is known to have arrived only once a listing
        // shows the ETag its answer gave: a server may answer 201 and keep
        // nothing.
        var confirmed: [String: String] = [:]
        for member in listing.members where member.etag != nil && unconfirmed[member.href]?.etag == member.etag {
            confirmed[member.href] = unconfirmed.removeValue(forKey: member.href)?.contactId
            known[member.href] = member.etag
        }
        if listing.isComplete {
            let present = Set(listing.members.map(\.href))
            listing.removed = known.keys.filter { !present.contains($0) }.sorted()
            // Never listed, so never deleted there: pushed again as new.
            for (href, card) in unconfirmed where !present.contains(href) {
                report.skipped.append("\(card.contactId): the server does not list its card \(href), which was pushed; it is pushed again")
            }
        }
        let wanted = listing.members.filter { member in
            guard let stored = known[member.href] else { return true }
            return member.etag == nil || stored != member.etag
        }
        // A server's word that a card only pushed is gone counts too (its
        // PUT arrived); the absence from a whole listing does not (it may
        // never have).
        let removed = listing.removed.filter { known[$0] != nil || (!listing.isComplete && unconfirmed[$0] != nil) }
        if dryRun {
            confirmedInDryRun = Set(confirmed.values)
            report.pulled.new = wanted.filter { known[$0.href] == nil }.count
            report.pulled.changed = wanted.count - report.pulled.new
            report.pulled.deleted = removed.count
            return
        }
        if !confirmed.isEmpty {
            try database.write { db in
                for href in confirmed.keys { try state.confirmLastPush(href: href, db) }
            }
        }
        total = wanted.count
        moved = Set(removed)
        let isComplete = try pullCards(wanted.map(\.href), intoEmptyDatabase: isEmpty)
        // Removals last: a card the server moved to another href has moved
        // its sync record with it by now, so its contact stays.
        try database.write { db in
            for href in removed { try self.remove(href: href, db) }
        }
        // A card that could not be fetched or read is listed again next
        // time only if the token stays where it was.
        guard isComplete else { return }
        let finalToken = listing.token
        try database.write { db in try state.setSyncToken(finalToken, db) }
    }

    /// The members changed since `token` (sync-collection), or all of them:
    /// a PROPFIND of their ETags, with the collection's sync-token taken
    /// first where it keeps one (a listing from scratch by sync-collection
    /// costs a server more: Radicale answers 10,000 cards in 1.9 s that
    /// way and in 1.15 s by PROPFIND); a change after that token is listed
    /// again at the next sync, and a card fetched twice is stored once.
    private func list(since token: String?) throws -> Listing {
        if let token, let listing = try syncCollection(since: token) { return listing }
        if let start = try collectionSyncToken() {
            var listing = try propfindListing()
            listing.token = start
            return listing
        }
        if let listing = try syncCollection(since: nil) { return listing }
        return try propfindListing()
    }

    /// The collection's `DAV:sync-token` property (RFC 6578 §4), or nil.
    private func collectionSyncToken() throws -> String? {
        let answer = try client.send("PROPFIND", collection, headers: [("Depth", "0")], body: DAVXML.propfind(["d:sync-token"]))
        guard answer.status == 207 else { return nil }
        // Only a shortcut: an answer that cannot be read lists as before.
        let token = (try? DAVXML.multistatus(answer.body, from: answer.url))?.responses.lazy
            .compactMap { $0.property("sync-token")?.trimmedText }.first
        return token?.isEmpty == false ? token : nil
    }

    /// Every member with its ETag, by PROPFIND.
    private func propfindListing() throws -> Listing {
        let answer = try client.send("PROPFIND", collection, headers: [("Depth", "1")],
                                     body: DAVXML.propfind(["d:getetag", "d:resourcetype"]))
        guard answer.status == 207 else { throw Self.unexpected(answer, doing: "listing the address book") }
        var listing = Listing(isComplete: true)
        for response in try DAVXML.multistatus(answer.body, from: answer.url).responses {
            guard let href = path(response.href), href != collection.path, href + "/" != collection.path,
                  response.property("resourcetype")?.child("collection") == nil
            else { continue }
            listing.members.append((href, response.property("getetag")?.trimmedText))
        }
        return listing
    }

    /// nil when the server keeps no sync-token, or refuses this one.
    private func syncCollection(since token: String?) throws -> Listing? {
        var listing = Listing(isComplete: token == nil, token: token)
        // A server may answer in parts (507 on the collection itself).
        for _ in 0..<10_000 {
            let answer = try client.send("REPORT", collection, headers: [("Depth", "1")],
                                         body: DAVXML.syncCollection(token: listing.token))
            guard answer.status == 207 else { return nil }
            let status = try DAVXML.multistatus(answer.body, from: answer.url)
            guard let next = status.syncToken, !next.isEmpty else { return nil }
            var isTruncated = false
            for response in status.responses {
                guard let href = path(response.href) else { continue }
                if href == collection.path || href + "/" == collection.path {
                    isTruncated = isTruncated || response.status == 507
                } else if response.status == 404 {
                    listing.removed.append(href)
                } else {
                    listing.members.append((href, response.property("getetag")?.trimmedText))
                }
            }
            // A server that says it holds more but gives no new token
            // would keep this loop going.
            guard isTruncated, next != listing.token else {
                listing.token = next
                break
            }
            listing.token = next
        }
        return listing
    }

    /// A card as fetched and read: its ETag, and its draft with its derived
    /// fields or why it cannot be read.
    private typealias FetchedCard = (etag: String?, card: Result<ImportedCard.Read, ContactsDBError>)

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
    /// A pull into an empty database is written as an import is, in one
    /// transaction that defers what is derived from the rows
    /// (``DeferredIndexes``): killed or failed, it leaves the database
    /// empty, as it was, and the next sync starts over; while it runs,
    /// another writer waits for it.
    @discardableResult
    func pullCards(_ hrefs: [String], intoEmptyDatabase: Bool = false) throws -> Bool {
        var isComplete = true
        func store(_ batch: PulledBatch, _ writer: ContactWriter, _ db: Database) throws {
            if let overrun = batch.fetched.overrun {
                throw ContactsDBError.remoteUnavailable(
                    url: collection.absoluteString, reason: "its cards were not read within \(Int(overrun)) s (--timeout)")
            }
            for href in batch.hrefs {
                if let card = batch.cards[href] {
                    switch card.card {
                    case let .success(.contact(draft, derived)):
                        try apply(href: href, etag: card.etag, draft, derived, writer, db)
                    case let .success(.group(group)):
                        try apply(href: href, etag: card.etag, group, writer, db)
                    case let .failure(error):
                        report.skipped.append("\(href): \(error.localizedDescription)")
                        unreadable.insert(href)
                        isComplete = false
                    }
                } else if batch.fetched.gone.contains(href) {
                    try remove(href: href, db)
                } else if let reason = batch.fetched.unreadable[href] {
                    report.skipped.append("\(href): the server's answer for it cannot be read (\(reason)); it is asked for again at the next sync")
                    isComplete = false
                } else {
                    report.skipped.append("\(href): the server did not send it; it is asked for again at the next sync")
                    isComplete = false
                }
            }
        }
        func countDone(_ batch: PulledBatch) {
            done += batch.hrefs.count
            progress?(done, total)
        }
        if intoEmptyDatabase {
            try database.write { db in
                let writer = try self.writer(db)
                deferred = try DeferredIndexes(db, sortingThreads: workers)
                defer { deferred = nil }
                // Each href is one card, nearly always a contact.
                try deferred?.expect(hrefs.count, db)
                try fetchAndRead(hrefs, regions: writer.regions) { batch in
                    try store(batch, writer, db)
                    try self.deferred?.didInsert(self.report.pulled.new, db)
                    countDone(batch)
                }
                try deferred?.finish(db)
            }
        } else {
            var regions = PhoneRegions.default
            try database.read { db in regions = try Settings.phoneRegions(db) }
            try fetchAndRead(hrefs, regions: regions) { batch in
                try self.database.write { db in try store(batch, try self.writer(db), db) }
                countDone(batch)
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

    /// What a pull into an empty database defers while it writes.
    private var deferred: DeferredIndexes?

    /// A batch of hrefs, what the server answered for them, and their
    /// cards read.
    private typealias PulledBatch = (hrefs: [String], fetched: Fetched, cards: [String: FetchedCard])

    /// Runs the pull's pipeline over `hrefs`, handing `write` each batch
    /// fetched and read, in order.
    private func fetchAndRead(_ hrefs: [String], regions: PhoneRegions, write: @escaping (PulledBatch) throws -> Void) throws {
        let batches = stride(from: 0, to: hrefs.count, by: Self.pullBatchSize).map {
            Array(hrefs[$0..<min($0 + Self.pullBatchSize, hrefs.count)])
        }
        let (client, collection) = (self.client, self.collection)
        try BatchPipeline<(hrefs: [String], fetched: Fetched), PulledBatch>.run(
            capacity: min(workers, 3) + 1, workers: workers,
            read: { pipeline in
                var pending = batches.first.map { Self.fetch($0, client, collection) }
                for (index, batch) in batches.enumerated() {
                    let next = index + 1 < batches.count ? Self.fetch(batches[index + 1], client, collection) : nil
                    let fetched = try Self.fetched(batch, pending!, client, collection)
                    guard pipeline.put((batch, fetched)) else { return }
                    pending = next
                }
            },
            prepare: { batch in
                // Read, the cards' bytes are dropped: only what is gone or unreadable is kept.
                var fetched = batch.fetched
                let cards = Self.read(fetched.cards, regions: regions, deadline: fetched.deadline, overrun: &fetched.overrun)
                fetched.cards = []
                return (batch.hrefs, fetched, cards)
            },
            write: write)
    }

    /// A batch's answer, read; a batch whose answer cannot be read (a note
    /// past any limit, bytes that are not UTF-8) is asked for card by card,
    /// so that one such card does not stop the others.
    private static func fetched(_ batch: [String], _ pending: DAVClient.Pending, _ client: DAVClient, _ collection: URL)
        throws -> Fetched
    {
        do {
            let response = try client.wait(pending)
            let answer = try cards(in: response, collection: collection)
            return Fetched(cards: answer.cards, gone: answer.gone, deadline: response.deadline)
        } catch ContactsDBError.remoteAnswerUnreadable where batch.count > 1 {
            var fetched = Fetched()
            for href in batch {
                do {
                    let answer = try cards(in: try client.wait(fetch([href], client, collection)), collection: collection)
                    fetched.cards += answer.cards
                    fetched.gone.formUnion(answer.gone)
                } catch ContactsDBError.remoteAnswerUnreadable(_, let reason) {
                    fetched.unreadable[href] = reason
                }
            }
            return fetched
        }
    }

    /// A batch's cards as fetched, not yet read: sent, gone (404, 410), or
    /// in an answer that could not be read, with why.
    private struct Fetched: Sendable {
        var cards: [(href: String, etag: String?, data: Data)] = []
        var gone: Set<String> = []
        var unreadable: [String: String] = [:]
        /// By when its cards must be read (``DAVResponse/deadline``).
        var deadline: (date: Date, timeout: TimeInterval)?
        /// The limit, when reading its cards went past it.
        var overrun: TimeInterval?
    }

    private static func fetch(_ hrefs: [String], _ client: DAVClient, _ collection: URL) -> DAVClient.Pending {
        client.start("REPORT", collection, headers: [("Depth", "1")], body: DAVXML.multiget(hrefs.map { encodedPath($0) }))
    }

    /// An addressbook-multiget's cards by href, with their ETags, and the
    /// hrefs it says are gone (404, 410).
    private static func cards(in answer: DAVResponse, collection: URL) throws
        -> (cards: [(href: String, etag: String?, data: Data)], gone: Set<String>)
    {
        guard answer.status == 207 else { throw unexpected(answer, doing: "fetching cards") }
        var cards: [(href: String, etag: String?, data: Data)] = [], gone: Set<String> = []
        for response in try DAVXML.multistatus(answer.body, from: answer.url).responses {
            guard let href = path(response.href, in: collection) else { continue }
            if let data = response.property("address-data")?.text {
                cards.append((href, response.property("getetag")?.trimmedText, Data(data.utf8)))
            } else if [404, 410].contains(response.status) {
                gone.insert(href)
            }
        }
        return (cards, gone)
    }

    /// Reads cards as `import` reads them, validated and derived.
    /// Past `deadline` it stops, saying so in `overrun`: `--timeout` bounds
    /// the work on an answer, not only the wait for it.
    private static func read(_ cards: [(href: String, etag: String?, data: Data)], regions: PhoneRegions,
                             deadline: (date: Date, timeout: TimeInterval)? = nil, overrun: inout TimeInterval?)
        -> [String: FetchedCard]
    {
        var byHref: [String: FetchedCard] = [:]
        for card in cards {
            if let deadline, Date() > deadline.date {
                overrun = deadline.timeout
                break
            }
            byHref[card.href] = (card.etag, Result { try ImportedCard.read(vCard: card.data, source: card.href, regions: regions) }
                .mapError { $0 as? ContactsDBError ?? .invalidContact(field: card.href, reason: "\($0)") })
        }
        return byHref
    }

    /// Stores a card the server holds: a new contact, a replacement of a
    /// contact unchanged here, or a merge with one changed here.
    private func apply(href: String, etag: String?, _ server: ContactDraft, _ derived: DerivedFields,
                       _ writer: ContactWriter, _ db: Database) throws {
        var server = server
        var synced = try state.card(href: href, db)
        var id = synced?.contactId ?? server.id ?? Self.stem(href)
        if synced == nil, var other = try state.card(contactId: id, db), other.href != href {
            if moved.contains(other.href) {
                // Moved on the server: the record follows the card.
                other.href = href
                synced = other
            } else {
                // Two cards with one UID: the second becomes a contact of
                // its own, its card's UID kept to be written back.
                server.uid = id
                id += "#" + Self.stem(href)
            }
        }
        server.id = id
        // A contact of another book with this id is another card: this
        // one is taken in under an id of its own (``ContactWriter/rehomingTakenIDs``).
        let stored = try ContactReader.stored(ids: [id], db).first.flatMap { $0.book == state.book ? $0 : nil }
        let local = try stored.flatMap { try ContactReader.withChildren([$0], db).first }
        if !server.groups.isEmpty { holdsCategories = true }
        // The UID is the contact's, never a difference between the sides.
        if let local { server.uid = local.uid }
        if groups == .cards { server = Self.keepingMembership(server, local?.groups ?? []) }
        // The version both sides last agreed on, and the contact's revision then.
        var baseJSON = synced?.base, agreedRevision = synced?.revision
        if let synced {
            let pushes = try synced.pushes.map { try self.membershipNeutral(Self.draft($0.base, href), like: server) }
            switch PullDecision.agreed(recordHasBase: synced.base != nil, pushes: pushes, server: server) {
            case .record: break
            case .push(let index): (baseJSON, agreedRevision) = (synced.pushes[index].base, synced.pushes[index].revision)
            case .firstPushBase: baseJSON = synced.pushes[0].base
            }
        }
        let base = try baseJSON.map { try membershipNeutral(Self.draft($0, href), like: server) }
        let decision = PullDecision.decide(isSynced: synced != nil, base: base, agreedRevision: agreedRevision,
                                           local: local.map { ($0.draft, $0.revision) }, server: server, prefer: prefer)
        let now = Date(), revision = try ChangeLog.revision(db)
        switch decision.write {
        case .nothing: break
        case .insert(let draft):
            id = try writer.insert(draft, derived, at: href, now: Timestamp.string(from: now))
        case .replace(let draft):
            try deferred?.stopDeferring(db)
            var unusual = UnusualValues()
            try writer.replace(pk: stored!.pk, try ContactValidator.imported(draft, at: href, counting: &unusual),
                               createdAt: local!.createdAt, updatedAt: now)
        }
        switch decision.counted {
        case .none: break
        case .new: report.pulled.new += 1
        case .changed: report.pulled.changed += 1
        }
        if let conflict = decision.conflict {
            try record(SyncConflict(contactId: id, detectedAt: now, kept: conflict.kept, properties: conflict.properties,
                                    losing: conflict.losing), db)
        }
        try state.save(SyncedCard(contactId: id, href: href, etag: etag, revision: decision.revision ?? revision,
                                      base: decision.keepsAgreedBase ? baseJSON : server.jsonText), db)
    }

    /// A card the server removed: the contact goes too, unless it changed
    /// here since the last sync (an edit beats a delete: it is pushed back).
    /// A card only pushed, its answer never stored, that the server now
    /// says it removed had arrived: another client deleted it.
    private func remove(href: String, _ db: Database) throws {
        if try removeGroup(href: href, db) { return }
        guard let synced = try state.card(href: href, db) else { return }
        try state.deleteCard(contactId: synced.contactId, db)
        // A contact moved to another book since is that book's now.
        let stored = try ContactReader.stored(ids: [synced.contactId], db).first.flatMap { $0.book == state.book ? $0 : nil }
        let agreed = synced.base != nil ? synced.revision : synced.pushes.last?.revision
        switch RemovalDecision.decide(agreedRevision: agreed, localRevision: stored?.contact.revision) {
        case .forgetRecord: break
        case .keepEdited:
            try record(SyncConflict(contactId: synced.contactId, detectedAt: Date(), kept: .local, properties: [],
                                    losing: nil), db)
        case .deleteContact:
            try deferred?.stopDeferring(db)
            try ContactWriter.delete([stored!.pk], db)
            report.pulled.deleted += 1
        }
    }

    /// A version stored with a sync record. One that cannot be read is a
    /// damaged database, not a difference: every property would conflict.
    private static func draft(_ json: String, _ href: String) throws -> ContactDraft {
        do {
            return try ContactJSON.decode(Data(json.utf8), source: href).draft
        } catch {
            throw ContactsDBError.databaseFailure(reason: "the synced version of \(href) cannot be read (\(error.localizedDescription))")
        }
    }

    private func record(_ conflict: SyncConflict, _ db: Database) throws {
        try state.insert(conflict, losing: conflict.losing?.jsonText, db)
        report.conflicts += 1
    }

    // MARK: - Pushing

    private func push() throws {
        var changes: (new: [String], changed: [String], deleted: [String]) = ([], [], [])
        try database.read { db in changes = try state.localChanges(db) }
        if dryRun {
            (report.pushed.new, report.pushed.changed, report.pushed.deleted) =
                (changes.new.filter { !confirmedInDryRun.contains($0) }.count, changes.changed.count, changes.deleted.count)
            return
        }
        let ids = changes.new + changes.changed
        total = done + ids.count + changes.deleted.count
        var retries: [String] = []
        for start in stride(from: 0, to: ids.count, by: Self.batchSize) {
            retries += try put(Array(ids[start..<min(start + Self.batchSize, ids.count)]))
        }
        for start in stride(from: 0, to: changes.deleted.count, by: Self.batchSize) {
            retries += try delete(Array(changes.deleted[start..<min(start + Self.batchSize, changes.deleted.count)]))
        }
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
        let ids2 = (changes.new + changes.changed).filter(again.contains)
        for start in stride(from: 0, to: ids2.count, by: Self.batchSize) {
            let left = try put(Array(ids2[start..<min(start + Self.batchSize, ids2.count)]))
            report.skipped += left.map { "\($0): the server changed it again during the sync; it is pushed at the next sync" }
        }
    }

    /// PUTs the contacts, several at once, each recorded as under way
    /// first; returns the ids the server refused because its card changed
    /// (412).
    private func put(_ ids: [String]) throws -> [String] {
        var outgoing: [(contact: Contact, isNew: Bool, href: String, headers: [(String, String)])] = []
        var unchanged: [SyncedCard] = []
        try database.read { db in
            for contact in try ContactReader.contacts(ids: ids, db) {
                let synced = try state.card(contactId: contact.id, db)
                // Changed only as the change counter sees it (a group card
                // gained it as a member): the server's card says it all.
                if var synced, let base = synced.base, synced.pushes.isEmpty,
                   ContactMerge.isSame(try membershipNeutral(Self.draft(base, synced.href), like: contact.draft), contact.draft) {
                    synced.revision = contact.revision
                    unchanged.append(synced)
                    continue
                }
                var headers = [("Content-Type", "text/vcard; charset=utf-8")]
                if let synced, synced.base != nil {
                    // Without an ETag (a server that sends none), at least
                    // not a card another client deleted.
                    headers.append(("If-Match", synced.etag ?? "*"))
                } else {
                    headers.append(("If-None-Match", "*"))
                }
                outgoing.append((contact, synced?.base == nil, try synced?.href ?? self.newHref(contact.id, db), headers))
            }
        }
        try database.write { db in
            for card in unchanged { try state.save(card, db) }
            try state.savePushes(outgoing.map { ($0.contact.id, $0.href, $0.contact.revision, $0.contact.draft.jsonText) }, db)
        }
        let answers = try client.sendAll(outgoing.map { item in
            DAVRequest(method: "PUT", url: url(item.href), headers: item.headers,
                              body: item.contact.vCard(version: version, categories: groups != .cards))
        })
        var stored: [(SyncedCard, isNew: Bool)] = [], retries: [String] = []
        for (item, answer) in zip(outgoing, answers) {
            switch PushOutcome.ofPut(status: answer.status, isNew: item.isNew) {
            case .stored, .alreadyGone:
                stored.append((SyncedCard(contactId: item.contact.id, href: item.href, etag: answer.etag,
                                          revision: item.contact.revision, base: item.contact.draft.jsonText),
                               item.isNew))
            case .changedThere:
                retries.append(item.contact.id)
            case .refused(let status):
                report.skipped.append("\(item.contact.id): the server refused it (\(status)); it is pushed again at the next sync")
            }
        }
        try database.write { db in
            for (card, isNew) in stored {
                if isNew {
                    try state.saveAnsweredPush(contactId: card.contactId, etag: card.etag, db)
                    self.report.pushed.new += 1
                } else {
                    try state.save(card, db)
                    self.report.pushed.changed += 1
                }
            }
        }
        done += ids.count
        progress?(done, total)
        return retries
    }

    /// DELETEs the cards of contacts deleted here; returns the ids whose
    /// card the server changed since (412), which come back.
    private func delete(_ ids: [String]) throws -> [String] {
        var outgoing: [SyncedCard] = []
        try database.read { db in outgoing = try ids.compactMap { try state.card(contactId: $0, db) } }
        let answers = try client.sendAll(outgoing.map { synced in
            DAVRequest(method: "DELETE", url: url(synced.href), headers: [("If-Match", synced.etag ?? "*")])
        })
        var gone: [String] = [], retries: [String] = []
        for (synced, answer) in zip(outgoing, answers) {
            switch PushOutcome.ofDelete(status: answer.status) {
            case .stored: gone.append(synced.contactId); report.pushed.deleted += 1
            case .alreadyGone: gone.append(synced.contactId)
            case .changedThere: retries.append(synced.contactId)
            case .refused(let status):
                report.skipped.append("\(synced.contactId): the server refused its deletion (\(status)); it is tried again at the next sync")
            }
        }
        try database.write { db in
            for id in gone { try state.deleteCard(contactId: id, db) }
        }
        done += ids.count
        progress?(done, total)
        return retries
    }

    // MARK: - Hrefs

    /// Where a contact the server never had goes: the file name `export
    /// --directory` gives it (``CardFileName``: no two ids share one, even
    /// on a server whose storage folds case) where no other card, contact's
    /// or group's, holds it, else a digest of the id; either way a rerun
    /// after a crash picks the same href.
    private func newHref(_ id: String, _ db: Database) throws -> String {
        let base = collection.path.hasSuffix("/") ? collection.path : collection.path + "/"
        let name = CardFileName.of(id)
        if try state.card(href: base + name, db).map({ $0.contactId == id }) ?? (state.group(href: base + name, db) == nil) {
            return base + name
        }
        return base + Checksum.sha256(id.utf8).prefix(40) + ".vcf"
    }

    /// An href as the server wrote it → its decoded path, the one key a
    /// card is known by; nil, and reported once, for one outside the
    /// address book.
    private func path(_ href: String) -> String? {
        let path = Self.path(href, in: collection)
        if path == nil, outsideHrefs.insert(href).inserted {
            report.outside.collection = collection.path
            report.outside.append(href)
        }
        return path
    }

    /// nil for an href outside the collection (another path, another host,
    /// `..` that climbs out): such a card is never requested or written.
    private static func path(_ href: String, in collection: URL) -> String? {
        // An href a server wrote without percent-encoding (a space) is
        // read as it would have been encoded.
        let written = URL(string: href, relativeTo: collection)
            ?? href.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed).flatMap { URL(string: $0, relativeTo: collection) }
        guard let url = written?.absoluteURL.standardized,
              DAVClient.origin(of: url) == DAVClient.origin(of: collection) else { return nil }
        // URL.path has no trailing slash but the root's.
        let base = collection.path.hasSuffix("/") ? collection.path : collection.path + "/"
        return url.path == collection.path || url.path.hasPrefix(base) ? url.path : nil
    }

    private static func encodedPath(_ path: String) -> String {
        var components = URLComponents()
        components.path = path
        return components.percentEncodedPath
    }

    func url(_ path: String) -> URL {
        var components = URLComponents(url: collection, resolvingAgainstBaseURL: true)!
        components.percentEncodedPath = Self.encodedPath(path)
        return components.url!
    }

    /// A card's name without its extension: the id of a card without UID.
    static func stem(_ href: String) -> String {
        let name = (href as NSString).lastPathComponent
        return name.hasSuffix(".vcf") ? String(name.dropLast(4)) : name
    }

    /// A listing or a fetch the server would not answer: 403 is the
    /// address book refused to these credentials (77), anything else a
    /// server that fails (69).
    private static func unexpected(_ answer: DAVResponse, doing what: String) -> ContactsDBError {
        answer.status == 403 ? .remoteRefusedCredentials(url: answer.url.absoluteString)
            : .remoteUnavailable(url: answer.url.absoluteString, reason: "it answered \(answer.status) when \(what)")
    }
}
