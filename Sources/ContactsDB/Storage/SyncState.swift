import Foundation
import GRDB

/// What the database knows of one book's CardDAV remote (Schema/0012,
/// 0017): the remote itself, each synced card's href, ETag, revision and
/// base, and the versions that lost a conflict. Every record is its book's:
/// an href names a card on that book's server only.
package struct SyncState {
    /// The book whose remote this is.
    package let book: BookID

    package init(book: BookID) {
        self.book = book
    }

    // MARK: - Remotes

    private static let remoteColumns = """
        b.id, b.name, r.url, r.username, r.passwordEnv, r.passwordFile, r.vcardVersion, r.syncToken, r.groups, \
        r.lastSyncedAt, r.conflicts
        """

    /// Every remote, in its book's name order.
    package static func remotes(_ db: Database) throws -> [StoredRemote] {
        try Row.fetchAll(db, sql: "SELECT \(remoteColumns) FROM remote r JOIN book b ON b.id = r.bookId")
            .map(StoredRemote.init).sorted { Collation.precedes($0.remote.name, $1.remote.name) }
    }

    /// The remote of the book named `name` in any case.
    package static func remote(named name: String, _ db: Database) throws -> StoredRemote? {
        guard let book = try BookRecords.id(named: name, db) else { return nil }
        return try Row.fetchOne(db, sql: "SELECT \(remoteColumns) FROM remote r JOIN book b ON b.id = r.bookId WHERE b.id = ?",
                                arguments: [book]).map(StoredRemote.init)
    }

    /// The remote bound to the collection at `url`, if any.
    package static func remote(url: String, _ db: Database) throws -> StoredRemote? {
        try Row.fetchOne(db, sql: "SELECT \(remoteColumns) FROM remote r JOIN book b ON b.id = r.bookId WHERE r.url = ?",
                         arguments: [url]).map(StoredRemote.init)
    }

    package func insert(_ remote: Remote, vCardVersion: String, _ db: Database) throws {
        var variable: String?, file: String?
        switch remote.password {
        case .environment(let name): variable = name
        case .file(let path): file = path
        case .netrc: break
        }
        try db.execute(sql: """
            INSERT INTO remote (bookId, url, username, passwordEnv, passwordFile, vcardVersion, addedAt, groups, conflicts)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [book, remote.url, remote.username, variable, file, vCardVersion,
                             Timestamp.string(from: Date()), remote.groups?.rawValue, remote.conflicts.rawValue])
    }

    package func setConflictHandling(_ handling: ConflictHandling, _ db: Database) throws {
        try db.execute(sql: "UPDATE remote SET conflicts = ? WHERE bookId = ?", arguments: [handling.rawValue, book])
    }

    package func setGroupConvention(_ convention: GroupConvention, _ db: Database) throws {
        try db.execute(sql: "UPDATE remote SET groups = ? WHERE bookId = ?", arguments: [convention.rawValue, book])
    }

    /// Forgets the remote and every card's sync record; contacts and
    /// conflicts stay.
    package func deleteRemote(_ db: Database) throws {
        for table in ["remote", "syncedCard", "syncPush", "syncedGroup", "syncGroupPush"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE bookId = ?", arguments: [book])
        }
    }

    package func setSyncToken(_ token: String?, _ db: Database) throws {
        try db.execute(sql: "UPDATE remote SET syncToken = ?, lastSyncedAt = ? WHERE bookId = ?",
                       arguments: [token, Timestamp.string(from: Date()), book])
    }

    // MARK: - Synced cards

    private static let cardColumns = "contactId, href, etag, revision, base"

    package func card(href: String, _ db: Database) throws -> SyncedCard? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.cardColumns) FROM syncedCard WHERE bookId = ? AND href = ?"),
                         arguments: [book, href]).map { try SyncedCard($0, book: book, db) }
    }

    package func card(contactId: String, _ db: Database) throws -> SyncedCard? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.cardColumns) FROM syncedCard WHERE bookId = ? AND contactId = ?"),
                         arguments: [book, contactId]).map { try SyncedCard($0, book: book, db) }
    }

    /// Whether no card, contact's or group's, is known to be on the
    /// server: what the address book holds is not known yet.
    package func holdsNoSyncedCard(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT NOT EXISTS (SELECT 1 FROM syncedCard WHERE bookId = ?1 AND base IS NOT NULL)
                AND NOT EXISTS (SELECT 1 FROM syncedGroup WHERE bookId = ?1)
            """, arguments: [book]) ?? false
    }

    /// The ETag of every card the server is known to hold, by href: read
    /// from an index that holds both, less the few new cards whose push is
    /// not confirmed, from an index of their own (Schema/0026).
    package func etags(_ db: Database) throws -> [String: String?] {
        var etags: [String: String?] = [:]
        try db.forEachRow("""
            SELECT href, etag FROM syncedCard
            WHERE bookId = ?1 AND href NOT IN (SELECT href FROM syncedCard WHERE bookId = ?1 AND base IS NULL)
            UNION ALL SELECT href, etag FROM syncedGroup WHERE bookId = ?1
            """, [book]) {
            etags[$0.text(0)] = $0.optionalText(1)
        }
        return etags
    }

    // MARK: - Synced group cards

    package func group(href: String, _ db: Database) throws -> SyncedGroup? {
        try groups(where: "href = ?", [href], db).first
    }

    package func group(uid: String, _ db: Database) throws -> SyncedGroup? {
        try groups(where: "uid = ?", [uid], db).first
    }

    package func groups(_ db: Database) throws -> [SyncedGroup] {
        try groups(where: "1", [], db)
    }

    /// Stores what both sides agree on; the pushes under way are settled.
    package func save(_ group: SyncedGroup, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM syncedGroup WHERE bookId = ? AND href = ? AND uid <> ?", arguments: [book, group.href, group.uid])
        try db.execute(sql: "INSERT OR REPLACE INTO syncedGroup (bookId, uid, href, etag, base) VALUES (?, ?, ?, ?, ?)",
                       arguments: [book, group.uid, group.href, group.etag, group.base])
        try db.execute(sql: "DELETE FROM syncGroupPush WHERE bookId = ? AND uid = ?", arguments: [book, group.uid])
    }

    package func deleteGroup(uid: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM syncedGroup WHERE bookId = ? AND uid = ?", arguments: [book, uid])
        try db.execute(sql: "DELETE FROM syncGroupPush WHERE bookId = ? AND uid = ?", arguments: [book, uid])
    }

    /// Records group card PUTs about to be sent, beside earlier ones not
    /// known to have arrived.
    package func saveGroupPushes(_ pushes: [(uid: String, base: String)], _ db: Database) throws {
        for push in pushes {
            try db.execute(sql: "INSERT OR IGNORE INTO syncGroupPush (bookId, uid, base) VALUES (?, ?, ?)",
                           arguments: [book, push.uid, push.base])
        }
    }

    /// What the group card PUTs under way for `uid` carried.
    package func groupPushes(uid: String, _ db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT base FROM syncGroupPush WHERE bookId = ? AND uid = ?", arguments: [book, uid]))
    }

    private func groups(where condition: String, _ arguments: StatementArguments, _ db: Database) throws -> [SyncedGroup] {
        var groups: [SyncedGroup] = []
        try db.forEachRow("SELECT uid, href, etag, base FROM syncedGroup WHERE bookId = ? AND \(condition) ORDER BY uid",
                          [book] + arguments) {
            groups.append(SyncedGroup(uid: $0.text(0), href: $0.text(1), etag: $0.optionalText(2), base: $0.text(3)))
        }
        return groups
    }

    /// Records pushes about to be sent: the version each PUT carries, kept
    /// beside those sent before and not known to have arrived (the server
    /// may hold any one of them), and the href of a card the server never
    /// had. The card's ETag is forgotten (its precondition is taken by
    /// now): while a push is under way, an ETag stored is the one its
    /// answer gave, which a listing must show before the push counts as
    /// arrived, and a card listed with any ETag is fetched.
    package func savePushes(_ pushes: [(contactId: String, href: String, revision: Int, base: String)], _ db: Database) throws {
        let card = try db.cachedStatement(sql: """
            INSERT INTO syncedCard (bookId, contactId, href, revision) VALUES (?, ?, ?, 0)
            ON CONFLICT (bookId, contactId) DO UPDATE SET etag = NULL
            """)
        let push = try db.cachedStatement(sql: "INSERT OR REPLACE INTO syncPush (bookId, contactId, revision, base) VALUES (?, ?, ?, ?)")
        for pushed in pushes {
            try card.execute(arguments: [book, pushed.contactId, pushed.href])
            try push.execute(arguments: [book, pushed.contactId, pushed.revision, pushed.base])
        }
    }

    /// Cards with pushes not known to have arrived, by href: the server
    /// may hold one of them, or still its earlier card, or (`isNew`) never
    /// have had the card. The ETag is the one the server answered the last
    /// push with, nil when no answer came.
    package func unconfirmedCards(_ db: Database) throws -> [String: (contactId: String, etag: String?, isNew: Bool)] {
        var cards: [String: (contactId: String, etag: String?, isNew: Bool)] = [:]
        try db.forEachRow("""
            SELECT href, contactId, etag, base IS NULL FROM syncedCard WHERE bookId = ?1
                AND contactId IN (SELECT contactId FROM syncPush WHERE bookId = ?1)
            """, [book]) { cards[$0.text(0)] = ($0.text(1), $0.optionalText(2), $0.bool(3)) }
        return cards
    }

    /// A push the server refused never arrived, so it is no version the
    /// server may hold; with none other under way, the card's ETag is again
    /// the one the push was sent against (nil for a new card).
    package func forgetPush(contactId: String, revision: Int, etag: String?, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM syncPush WHERE bookId = ? AND contactId = ? AND revision = ?")
            .execute(arguments: [book, contactId, revision])
        try db.cachedStatement(sql: """
            UPDATE syncedCard SET etag = ?3 WHERE bookId = ?1 AND contactId = ?2
                AND NOT EXISTS (SELECT 1 FROM syncPush WHERE bookId = ?1 AND contactId = ?2)
            """).execute(arguments: [book, contactId, etag])
    }

    /// A PUT answered as stored, with its ETag: still unconfirmed until a
    /// listing shows the server holds it (a server may answer 2xx and keep
    /// nothing); the version agreed before stays the merge's base.
    package func saveAnsweredPush(contactId: String, etag: String?, _ db: Database) throws {
        try db.cachedStatement(sql: "UPDATE syncedCard SET etag = ? WHERE bookId = ? AND contactId = ?")
            .execute(arguments: [etag, book, contactId])
    }

    /// A listing showed the card at `href` with the ETag its last push was
    /// answered with: the server holds that push, now the agreed version.
    package func confirmLastPush(href: String, _ db: Database) throws {
        try db.cachedStatement(sql: """
            UPDATE syncedCard SET (revision, base) = (
                SELECT p.revision, p.base FROM syncPush p WHERE p.bookId = ?1 AND p.contactId = syncedCard.contactId
                ORDER BY p.revision DESC LIMIT 1)
            WHERE bookId = ?1 AND href = ?2
                AND EXISTS (SELECT 1 FROM syncPush p WHERE p.bookId = ?1 AND p.contactId = syncedCard.contactId)
            """).execute(arguments: [book, href])
        try db.cachedStatement(sql: """
            DELETE FROM syncPush WHERE bookId = ?1 AND contactId = (SELECT contactId FROM syncedCard WHERE bookId = ?1 AND href = ?2)
            """).execute(arguments: [book, href])
    }

    package func save(_ card: SyncedCard, _ db: Database) throws {
        // A card that moved to another href, or an href that now holds
        // another contact, leaves one row.
        try db.cachedStatement(sql: """
            DELETE FROM syncPush WHERE bookId = ?1
                AND contactId IN (SELECT contactId FROM syncedCard WHERE bookId = ?1 AND href = ?2 AND contactId <> ?3)
            """).execute(arguments: [book, card.href, card.contactId])
        try db.cachedStatement(sql: "DELETE FROM syncedCard WHERE bookId = ? AND href = ? AND contactId <> ?")
            .execute(arguments: [book, card.href, card.contactId])
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO syncedCard (bookId, \(Self.cardColumns)) VALUES (?, ?, ?, ?, ?, ?)
            """).execute(arguments: [book, card.contactId, card.href, card.etag, card.revision, card.base])
        try db.cachedStatement(sql: "DELETE FROM syncPush WHERE bookId = ? AND contactId = ?").execute(arguments: [book, card.contactId])
    }

    package func deleteCard(contactId: String, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM syncedCard WHERE bookId = ? AND contactId = ?").execute(arguments: [book, contactId])
        try db.cachedStatement(sql: "DELETE FROM syncPush WHERE bookId = ? AND contactId = ?").execute(arguments: [book, contactId])
    }

    /// The local changes since the last sync: the book's contacts the
    /// remote is not known to hold, contacts changed after their sync, and
    /// synced cards whose contact is gone or moved to another book; ids in
    /// revision order.
    package func localChanges(_ db: Database) throws -> (new: [String], changed: [String], deleted: [String]) {
        var new: [String] = [], changed: [String] = [], deleted: [String] = []
        try db.forEachRow("""
            SELECT c.id, s.base IS NULL FROM contact c LEFT JOIN syncedCard s ON s.bookId = ?1 AND s.contactId = c.id
            WHERE c.bookId = ?1 AND (s.base IS NULL OR c.revision > s.revision) ORDER BY c.revision, c.id
            """, [book]) { row in
            if row.bool(1) { new.append(row.text(0)) } else { changed.append(row.text(0)) }
        }
        try db.forEachRow("""
            SELECT s.contactId FROM syncedCard s
            WHERE s.bookId = ?1 AND NOT EXISTS (SELECT 1 FROM contact c WHERE c.id = s.contactId AND c.bookId = ?1)
            ORDER BY s.contactId
            """, [book]) { deleted.append($0.text(0)) }
        return (new, changed, deleted)
    }

    // MARK: - Conflicts

    /// - parameter losing: the losing version's JSON, nil for a deletion.
    package func insert(_ conflict: SyncConflict, losing: String?, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO syncConflict (contactId, detectedAt, kept, properties, losing, bookId) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [conflict.contactId, Timestamp.string(from: conflict.detectedAt), conflict.kept.rawValue,
                             JSONText.array(conflict.properties), losing, book])
    }

    /// The conflicts of every book with their losing versions' JSON (nil: a
    /// deletion).
    package static func conflicts(id: Int? = nil, _ db: Database) throws -> [(conflict: SyncConflict, losing: String?)] {
        let filter = id == nil ? "" : "WHERE id = ?"
        return try Row.fetchAll(db, sql: """
            SELECT id, contactId, detectedAt, kept, properties, losing FROM syncConflict \(filter) ORDER BY id
            """, arguments: StatementArguments(id.map { [$0] } ?? [])).map { row in
            let properties = (try? JSONSerialization.jsonObject(with: Data((row[4] as String).utf8))) as? [String] ?? []
            return (SyncConflict(
                id: row[0], contactId: row[1], detectedAt: Timestamp.date(from: row[2]) ?? Date(timeIntervalSince1970: 0),
                kept: SyncPreference(rawValue: row[3]) ?? .server, properties: properties, losing: nil), row[5])
        }
    }

    /// The book of the contact a conflict is about, nil when there is no
    /// conflict with that id.
    package static func conflictBook(id: Int, _ db: Database) throws -> BookID? {
        try BookID.fetchOne(db.cachedStatement(sql: "SELECT bookId FROM syncConflict WHERE id = ?"), arguments: [id])
    }

    /// Deletes a conflict record; false when there is none with that id.
    package static func deleteConflict(id: Int, _ db: Database) throws -> Bool {
        try db.execute(sql: "DELETE FROM syncConflict WHERE id = ?", arguments: [id])
        return db.changesCount > 0
    }
}

/// The stored remote with what sync keeps of it.
package struct StoredRemote {
    /// Its book's.
    package var book: BookID
    package var remote: Remote
    /// `3.0` or `4.0`.
    package var vCardVersion: String
    package var syncToken: String?

    /// A row of `remoteColumns`.
    init(_ row: Row) {
        let password: PasswordSource = if let variable: String = row[4] { .environment(variable) }
            else if let file: String = row[5] { .file(file) } else { .netrc }
        book = row[0]
        var remote = Remote(name: row[1], url: row[2], username: row[3], password: password,
                            groups: (row[8] as String?).flatMap(GroupConvention.init(rawValue:)))
        remote.lastSyncedAt = (row[9] as String?).flatMap(Timestamp.date(from:))
        remote.conflicts = (row[10] as String?).flatMap(ConflictHandling.init(rawValue:)) ?? .merge
        self.remote = remote
        vCardVersion = row[6]
        syncToken = row[7]
    }
}

/// A group card as the remote holds it, as of the last sync.
package struct SyncedGroup: Equatable {
    package var uid: String
    package var href: String
    package var etag: String?
    /// The name and members both sides last agreed on
    /// (``GroupCard/agreement``).
    package var base: String

    package init(uid: String, href: String, etag: String?, base: String) {
        (self.uid, self.href, self.etag, self.base) = (uid, href, etag, base)
    }
}

/// A contact as the remote holds it, as of the last sync.
package struct SyncedCard {
    package var contactId: String
    package var href: String
    package var etag: String?
    /// The contact's revision when it last matched the server.
    package var revision: Int
    /// The contact's JSON as last synced; nil until the server is known
    /// to hold the card.
    package var base: String?
    /// The pushes sent but not known to have arrived, oldest first: the
    /// revision and the JSON each carried. The server holds one of them,
    /// or none.
    package var pushes: [(revision: Int, base: String)] = []

    package init(contactId: String, href: String, etag: String?, revision: Int, base: String?) {
        (self.contactId, self.href, self.etag, self.revision, self.base) = (contactId, href, etag, revision, base)
    }

    init(_ row: Row, book: BookID, _ db: Database) throws {
        self.init(contactId: row[0], href: row[1], etag: row[2], revision: row[3], base: row[4])
        try db.forEachRow("SELECT revision, base FROM syncPush WHERE bookId = ? AND contactId = ? ORDER BY revision", [book, contactId]) {
            pushes.append(($0.int(0), $0.text(1)))
        }
    }
}
