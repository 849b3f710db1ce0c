import ContactsDB
import Foundation
import GRDB

/// The database as a sync reads and writes it: each write one transaction
/// that advances the change counter, errors mapped as every write's are.
struct SyncDatabase {
    var read: ((Database) throws -> Void) throws -> Void
    var write: ((Database) throws -> Void) throws -> Void
}

/// One two-way sync with the remote (docs/sync.md, "Syncing with a CardDAV
/// server").
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
///
/// The phases are extensions of their own: `SyncSession+Listing`,
/// `+Pulling` (fetching in ``CardMultiget``), `+Pushing` and `+Groups`;
/// the rules they follow are values (`SyncDecisions`, `PushDecisions`).
final class SyncSession {
    let database: SyncDatabase
    /// The book synced, and what its remote holds.
    let state: SyncState
    let client: DAVClient
    let collection: URL
    let version: VCardVersion
    let prefer: SyncPreference
    /// What a property both sides changed does (``ConflictHandling``).
    let conflicts: ConflictHandling
    let dryRun: Bool
    /// Threads that read and derive pulled cards (``ContactStore/Options/workers``).
    let workers: Int
    let progress: ((Int, Int) -> Void)?
    var report = SyncReport()
    /// How the remote keeps groups; nil until this sync finds it.
    var groups: GroupConvention?
    /// Hrefs a server named outside the address book, each reported once.
    private var outsideHrefs: Set<String> = []
    /// Cards pulled and contacts pushed so far, of how many.
    var done = 0, total = 0
    /// Hrefs this pull found removed: one of them holding a card that now
    /// turns up at another href was moved, not deleted.
    var removedHrefs: Set<String> = []
    /// Hrefs whose card could not be read: not pushed over.
    var unreadable: Set<String> = []
    /// Whether a card pulled carried CATEGORIES.
    var holdsCategories = false
    /// Contacts whose push a dry run's listing shows arrived: not to be
    /// pushed.
    var confirmedInDryRun: Set<String> = []
    /// Whether this sync listed without a sync-token: the server keeps none.
    var keepsNoSyncToken = false
    /// Hrefs this sync PUT, and of those the ones answered without an
    /// ETag: the server rewrote them (``settlePushes()``).
    var pushedHrefs: [String] = [], rewrittenHrefs: [String] = []
    /// Cards fetched for a new ETag that held what was agreed already.
    var refetchedUnchanged = 0

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
         prefer: SyncPreference, conflicts: ConflictHandling = .merge, groups: GroupConvention?, dryRun: Bool, workers: Int,
         progress: ((Int, Int) -> Void)?) {
        self.conflicts = conflicts
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
        try settlePushes()
        return report
    }

    // MARK: - Hrefs

    /// Where a contact the server never had goes: the file name `export
    /// --directory` gives it (``CardFileName``: no two ids share one, even
    /// on a server whose storage folds case) where no other card, contact's
    /// or group's, holds it, else a digest of the id; either way a rerun
    /// after a crash picks the same href.
    func newHref(_ id: String, _ db: Database) throws -> String {
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
    func path(_ href: String) -> String? {
        let path = Self.path(href, in: collection)
        if path == nil, outsideHrefs.insert(href).inserted {
            report.outside.collection = collection.path
            report.outside.append(href)
        }
        return path
    }

    /// nil for an href outside the collection (another path, another host,
    /// `..` that climbs out): such a card is never requested or written.
    static func path(_ href: String, in collection: URL) -> String? {
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

    static func encodedPath(_ path: String) -> String {
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
    static func unexpected(_ answer: DAVResponse, doing what: String) -> ContactsDBError {
        answer.status == 403 ? .remoteRefusedCredentials(url: answer.url.absoluteString)
            : .remoteUnavailable(url: answer.url.absoluteString, reason: "it answered \(answer.status) when \(what)")
    }
}
