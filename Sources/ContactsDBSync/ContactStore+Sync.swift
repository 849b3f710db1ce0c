import ContactsDB
import Foundation

extension ContactStore {
    // MARK: - Remotes

    /// Finds the address book behind `remote.url` (the collection itself,
    /// or a server or principal URL: RFC 6764's well-known URI,
    /// current-user-principal, addressbook-home-set) and binds it to the
    /// book `remote.name`: a new book, or an existing one without a remote,
    /// whose contacts the first sync then pushes. A new book becomes the
    /// default when the default book is empty and has no remote. The password is read from
    /// its source to discover, and never stored.
    ///
    /// - parameter remote: its name, the URL to start from, the username
    ///   and where the password is.
    /// - parameter addressBook: the address book's name or last path
    ///   segment, needed when the server has several.
    /// - parameter timeout: seconds one request may take.
    /// - returns: the remote as stored, its URL the address book's.
    /// - throws: `.invalidRemote` (plain http to another host, several
    ///   address books), `.invalidBook` (a book that has a remote, a
    ///   collection bound to another book), `.remoteUnavailable`,
    ///   `.remoteRefusedCredentials`; nothing is written.
    @discardableResult
    public func addRemote(_ remote: Remote, addressBook: String? = nil, timeout: TimeInterval = Remote.defaultTimeout) throws -> Remote {
        try addRemote(remote, addressBook: addressBook, transport: HTTPTransport(timeout: timeout))
    }

    /// ``addRemote(_:addressBook:timeout:)`` over `transport`.
    @discardableResult
    package func addRemote(_ remote: Remote, addressBook: String? = nil, transport: any DAVTransport) throws -> Remote {
        // A remote is its book's: named as a book is (spaces included).
        var remote = remote
        remote.name = try Self.bookName(remote.name)
        // Refused before discovery where no request could change the answer.
        if let existing = try self.remote(named: remote.name) {
            throw ContactsDBError.invalidBook(.hasRemote(name: existing.name, url: existing.url))
        }
        if let bound = try remotes().first(where: { $0.url == remote.url }) {
            throw ContactsDBError.invalidBook(.collectionBound(url: bound.url, book: bound.name))
        }
        let url = try Self.remoteURL(remote.url)
        let client = DAVClient(credentials: try Credentials.read(for: remote, host: url.host ?? ""), transport: transport)
        let found = try Discovery(client: client).addressBook(from: url, named: addressBook)
        try DAVClient.requireSecure(found.url)
        var stored = remote
        stored.url = found.url.absoluteString
        try write { db in
            if let existing = try SyncState.remote(named: remote.name, db) {
                throw ContactsDBError.invalidBook(.hasRemote(name: existing.remote.name, url: existing.remote.url))
            }
            if let bound = try SyncState.remote(url: stored.url, db) {
                throw ContactsDBError.invalidBook(.collectionBound(url: stored.url, book: bound.remote.name))
            }
            let existing = try BookRecords.id(named: remote.name, db)
            let book = try existing ?? BookRecords.create(remote.name, db)
            stored.name = try BookRecords.name(book, db)
            // A new book takes over from a default that is empty and syncs
            // nowhere, so that what is added next is synced.
            let defaultBook = try BookRecords.defaultID(db)
            if existing == nil, try BookRecords.contactCount(defaultBook, db) == 0,
               try !SyncState.remotes(db).contains(where: { $0.book == defaultBook }) {
                try BookRecords.setDefault(book, db)
            }
            // A new binding starts from nothing: no record of another
            // binding's cards may make the first sync delete contacts here.
            try SyncState(book: book).deleteRemote(db)
            try SyncState(book: book).insert(stored, vCardVersion: found.vCardVersion.rawValue, db)
        }
        return stored
    }

    // MARK: - Syncing

    /// Syncs one book both ways with its remote (docs/sync.md, "Syncing with a
    /// CardDAV server"): pulls what the server changed since the last sync,
    /// merging with what changed here, then pushes what changed here. A second
    /// sync with nothing changed sends no PUT or DELETE. No card of another
    /// book is read or sent. Two syncs of one database never run at once: the
    /// second waits the busy timeout, then fails with `.syncRunning`.
    ///
    /// - parameter name: the remote's (its book's) name.
    /// - parameter prefer: whose value wins a property both sides changed;
    ///   the other is kept as a `SyncConflict`.
    /// - parameter dryRun: count what would be pulled and pushed, reading
    ///   the server's listing but no card, and change nothing.
    /// - parameter timeout: seconds one request may take.
    /// - parameter progress: called with the cards done and the total,
    ///   after each batch is stored.
    /// - throws: `.remoteNotFound(name)` for a book without a remote,
    ///   `.remoteUnavailable`, `.remoteRefusedCredentials`, `.invalidRemote`.
    ///   What was stored before a failure stays stored, consistent: the
    ///   next sync goes on from there, a first sync too.
    public func sync(remote name: String, prefer: SyncPreference = .server, dryRun: Bool = false,
                     timeout: TimeInterval = Remote.defaultTimeout, progress: ((Int, Int) -> Void)? = nil) throws -> SyncReport {
        try sync(remote: name, prefer: prefer, dryRun: dryRun, transport: HTTPTransport(timeout: timeout), progress: progress)
    }

    /// ``sync(remote:prefer:dryRun:timeout:progress:)`` over `transport`.
    package func sync(remote name: String, prefer: SyncPreference = .server, dryRun: Bool = false, transport: any DAVTransport,
                      progress: ((Int, Int) -> Void)? = nil) throws -> SyncReport {
        try holdingSyncLock {
            guard let stored = try read({ db in try SyncState.remote(named: name, db) }) else {
                throw ContactsDBError.remoteNotFound(name: name)
            }
            let url = try Self.remoteURL(stored.remote.url)
            let client = DAVClient(credentials: try Credentials.read(for: stored.remote, host: url.host ?? ""), transport: transport)
            let database = SyncDatabase(read: { body in try self.read(body) }, write: { body in try self.write(by: .sync(remote: name), body) })
            return try SyncSession(database: database, state: SyncState(book: stored.book), client: client, collection: url,
                                   version: VCardVersion(rawValue: stored.vCardVersion) ?? .v3,
                                   prefer: prefer, conflicts: stored.remote.conflicts, groups: stored.remote.groups, dryRun: dryRun,
                                   workers: workers, progress: progress)
                .run(token: stored.syncToken, isFirst: stored.remote.lastSyncedAt == nil)
        }
    }

    // MARK: - Non public

    private static func remoteURL(_ text: String) throws -> URL {
        guard let url = URL(string: text) else {
            throw ContactsDBError.invalidRemote(.notAURL(text))
        }
        // A password in the URL would be stored and printed with it.
        guard url.user == nil, url.password == nil else {
            throw ContactsDBError.invalidRemote(.credentialsInURL)
        }
        try DAVClient.requireSecure(url)
        return url
    }
}
