import Foundation
import GRDB

/// What the database knows of its CardDAV remote (Schema/0012): the
/// remote itself, each synced card's href, ETag, revision and base, and
/// the versions that lost a conflict.
package enum SyncState {
    // MARK: - The remote

    package static func remote(_ db: Database) throws -> StoredRemote? {
        try Row.fetchOne(db, sql: """
            SELECT name, url, username, passwordEnv, passwordFile, vcardVersion, syncToken, groups FROM remote
            """).map { row in
            let password: PasswordSource = if let variable: String = row[3] { .environment(variable) }
                else if let file: String = row[4] { .file(file) } else { .netrc }
            let groups = (row[7] as String?).flatMap(GroupConvention.init(rawValue:))
            return StoredRemote(
                remote: Remote(name: row[0], url: row[1], username: row[2], password: password, groups: groups),
                vCardVersion: row[5], syncToken: row[6])
        }
    }

    package static func insert(_ remote: Remote, vCardVersion: String, _ db: Database) throws {
        var variable: String?, file: String?
        switch remote.password {
        case .environment(let name): variable = name
        case .file(let path): file = path
        case .netrc: break
        }
        try db.execute(sql: """
            INSERT INTO remote (id, name, url, username, passwordEnv, passwordFile, vcardVersion, addedAt, groups)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [remote.name, remote.url, remote.username, variable, file, vCardVersion,
                             Timestamp.string(from: Date()), remote.groups?.rawValue])
    }

    package static func setGroupConvention(_ convention: GroupConvention, _ db: Database) throws {
        try db.execute(sql: "UPDATE remote SET groups = ?", arguments: [convention.rawValue])
    }

    /// Forgets the remote and every card's sync record; contacts and
    /// conflicts stay.
    package static func deleteRemote(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM remote; DELETE FROM syncedCard; DELETE FROM syncPush; DELETE FROM syncedGroup; DELETE FROM syncGroupPush")
    }

    package static func setSyncToken(_ token: String?, _ db: Database) throws {
        try db.execute(sql: "UPDATE remote SET syncToken = ?, lastSyncedAt = ?",
                       arguments: [token, Timestamp.string(from: Date())])
    }

    // MARK: - Synced cards

    private static let cardColumns = "contactId, href, etag, revision, base"

    package static func card(href: String, _ db: Database) throws -> SyncedCard? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(cardColumns) FROM syncedCard WHERE href = ?"),
                         arguments: [href]).map { try SyncedCard($0, db) }
    }

    package static func card(contactId: String, _ db: Database) throws -> SyncedCard? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(cardColumns) FROM syncedCard WHERE contactId = ?"),
                         arguments: [contactId]).map { try SyncedCard($0, db) }
    }

    /// Whether the database holds no contact and no record of a card:
    /// a pull into it only adds.
    package static func isEmpty(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT NOT EXISTS (SELECT 1 FROM contact) AND NOT EXISTS (SELECT 1 FROM syncedCard)
                AND NOT EXISTS (SELECT 1 FROM syncedGroup)
            """) ?? false
    }

    /// The ETag of every card the server is known to hold, by href.
    package static func etags(_ db: Database) throws -> [String: String?] {
        var etags: [String: String?] = [:]
        try db.forEachRow("SELECT href, etag FROM syncedCard WHERE base IS NOT NULL UNION ALL SELECT href, etag FROM syncedGroup", []) {
            etags[$0.text(0)] = $0.optionalText(1)
        }
        return etags
    }

    // MARK: - Synced group cards

    package static func group(href: String, _ db: Database) throws -> SyncedGroup? {
        try groups(where: "href = ?", [href], db).first
    }

    package static func group(uid: String, _ db: Database) throws -> SyncedGroup? {
        try groups(where: "uid = ?", [uid], db).first
    }

    package static func groups(_ db: Database) throws -> [SyncedGroup] {
        try groups(where: "1", [], db)
    }

    /// Stores what both sides agree on; the pushes under way are settled.
    package static func save(_ group: SyncedGroup, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM syncedGroup WHERE href = ? AND uid <> ?", arguments: [group.href, group.uid])
        try db.execute(sql: "INSERT OR REPLACE INTO syncedGroup (uid, href, etag, base) VALUES (?, ?, ?, ?)",
                       arguments: [group.uid, group.href, group.etag, group.base])
        try db.execute(sql: "DELETE FROM syncGroupPush WHERE uid = ?", arguments: [group.uid])
    }

    package static func deleteGroup(uid: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM syncedGroup WHERE uid = ?", arguments: [uid])
        try db.execute(sql: "DELETE FROM syncGroupPush WHERE uid = ?", arguments: [uid])
    }

    /// Records group card PUTs about to be sent, beside earlier ones not
    /// known to have arrived.
    package static func saveGroupPushes(_ pushes: [(uid: String, base: String)], _ db: Database) throws {
        for push in pushes {
            try db.execute(sql: "INSERT OR IGNORE INTO syncGroupPush (uid, base) VALUES (?, ?)", arguments: [push.uid, push.base])
        }
    }

    /// What the group card PUTs under way for `uid` carried.
    package static func groupPushes(uid: String, _ db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT base FROM syncGroupPush WHERE uid = ?", arguments: [uid]))
    }

    private static func groups(where condition: String, _ arguments: StatementArguments, _ db: Database) throws -> [SyncedGroup] {
        var groups: [SyncedGroup] = []
        try db.forEachRow("SELECT uid, href, etag, base FROM syncedGroup WHERE \(condition) ORDER BY uid", arguments) {
            groups.append(SyncedGroup(uid: $0.text(0), href: $0.text(1), etag: $0.optionalText(2), base: $0.text(3)))
        }
        return groups
    }

    /// Records pushes about to be sent: the version each PUT carries, kept
    /// beside those sent before and not known to have arrived (the server
    /// may hold any one of them), and the href of a card the server never
    /// had.
    package static func savePushes(_ pushes: [(contactId: String, href: String, revision: Int, base: String)], _ db: Database) throws {
        let card = try db.cachedStatement(sql: """
            INSERT INTO syncedCard (contactId, href, revision) VALUES (?, ?, 0) ON CONFLICT (contactId) DO NOTHING
            """)
        let push = try db.cachedStatement(sql: "INSERT OR REPLACE INTO syncPush (contactId, revision, base) VALUES (?, ?, ?)")
        for pushed in pushes {
            try card.execute(arguments: [pushed.contactId, pushed.href])
            try push.execute(arguments: [pushed.contactId, pushed.revision, pushed.base])
        }
    }

    /// Hrefs of cards whose pushes are all unconfirmed: the server may hold
    /// them, or never have had them.
    package static func unconfirmedHrefs(_ db: Database) throws -> Set<String> {
        var hrefs: Set<String> = []
        try db.forEachRow("""
            SELECT href FROM syncedCard WHERE base IS NULL AND contactId IN (SELECT contactId FROM syncPush)
            """, []) { hrefs.insert($0.text(0)) }
        return hrefs
    }

    package static func save(_ card: SyncedCard, _ db: Database) throws {
        // A card that moved to another href, or an href that now holds
        // another contact, leaves one row.
        try db.cachedStatement(sql: """
            DELETE FROM syncPush WHERE contactId IN (SELECT contactId FROM syncedCard WHERE href = ? AND contactId <> ?)
            """).execute(arguments: [card.href, card.contactId])
        try db.cachedStatement(sql: "DELETE FROM syncedCard WHERE href = ? AND contactId <> ?")
            .execute(arguments: [card.href, card.contactId])
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO syncedCard (\(cardColumns)) VALUES (?, ?, ?, ?, ?)
            """).execute(arguments: [card.contactId, card.href, card.etag, card.revision, card.base])
        try db.cachedStatement(sql: "DELETE FROM syncPush WHERE contactId = ?").execute(arguments: [card.contactId])
    }

    package static func deleteCard(contactId: String, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM syncedCard WHERE contactId = ?").execute(arguments: [contactId])
        try db.cachedStatement(sql: "DELETE FROM syncPush WHERE contactId = ?").execute(arguments: [contactId])
    }

    /// The local changes since the last sync: contacts the remote is not
    /// known to hold, contacts changed after their sync, and synced cards
    /// whose contact is gone; ids in revision order.
    package static func localChanges(_ db: Database) throws -> (new: [String], changed: [String], deleted: [String]) {
        var new: [String] = [], changed: [String] = [], deleted: [String] = []
        try db.forEachRow("""
            SELECT c.id, s.base IS NULL FROM contact c LEFT JOIN syncedCard s ON s.contactId = c.id
            WHERE s.base IS NULL OR c.revision > s.revision ORDER BY c.revision, c.id
            """, []) { row in
            if row.bool(1) { new.append(row.text(0)) } else { changed.append(row.text(0)) }
        }
        try db.forEachRow("""
            SELECT s.contactId FROM syncedCard s WHERE NOT EXISTS (SELECT 1 FROM contact c WHERE c.id = s.contactId)
            ORDER BY s.contactId
            """, []) { deleted.append($0.text(0)) }
        return (new, changed, deleted)
    }

    // MARK: - Conflicts

    /// - parameter losing: the losing version's JSON, nil for a deletion.
    package static func insert(_ conflict: SyncConflict, losing: String?, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO syncConflict (contactId, detectedAt, kept, properties, losing) VALUES (?, ?, ?, ?, ?)
            """, arguments: [conflict.contactId, Timestamp.string(from: conflict.detectedAt), conflict.kept.rawValue,
                             "[" + conflict.properties.map(JSONText.quote).joined(separator: ",") + "]", losing])
    }

    /// The conflicts with their losing versions' JSON (nil: a deletion).
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

    /// Deletes a conflict record; false when there is none with that id.
    package static func deleteConflict(id: Int, _ db: Database) throws -> Bool {
        try db.execute(sql: "DELETE FROM syncConflict WHERE id = ?", arguments: [id])
        return db.changesCount > 0
    }
}

/// The stored remote with what sync keeps of it.
package struct StoredRemote {
    package var remote: Remote
    /// `3.0` or `4.0`.
    package var vCardVersion: String
    package var syncToken: String?
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

    init(_ row: Row, _ db: Database) throws {
        self.init(contactId: row[0], href: row[1], etag: row[2], revision: row[3], base: row[4])
        try db.forEachRow("SELECT revision, base FROM syncPush WHERE contactId = ? ORDER BY revision", [contactId]) {
            pushes.append(($0.int(0), $0.text(1)))
        }
    }
}
