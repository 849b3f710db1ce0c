import Foundation
import GRDB

/// Writes groups and memberships; names are unique whatever their case.
package struct GroupWriter {
    private let insertGroup, insertMember, joinPending, forgetPending: SQLiteStatement
    /// The groups a write creates are created at the write's time.
    private let now = Timestamp.string(from: Date())

    init(_ db: Database) throws {
        // The uid is made only when the group is: a membership of a group
        // that exists costs no UUID.
        insertGroup = try SQLiteStatement(db, """
            INSERT INTO contactGroup (name, nameKey, createdAt, uid)
            SELECT ?1, ?2, ?3, coalesce(?4, \(Self.newUIDSQL))
            WHERE NOT EXISTS (SELECT 1 FROM contactGroup WHERE nameKey = ?2)
            """)
        joinPending = try SQLiteStatement(db, """
            INSERT OR IGNORE INTO groupMember (groupPk, contactPk) SELECT groupPk, ?1 FROM groupPendingMember WHERE member = ?2
            """)
        forgetPending = try SQLiteStatement(db, "DELETE FROM groupPendingMember WHERE member = ?")
        // One row of values, not a select: as the table has a trigger, an
        // insert from a select copies the selected rows to a temporary
        // table first, which cost half again per membership. A group not
        // found gives no key, and the row is ignored.
        insertMember = try SQLiteStatement(db, """
            INSERT OR IGNORE INTO groupMember (groupPk, contactPk)
            VALUES ((SELECT pk FROM contactGroup WHERE nameKey = ?2), ?1)
            """)
    }

    /// Creates the group, with `uid` or a new random UUID, unless one has
    /// its name in any case.
    func create(_ name: String, uid: String? = nil) throws {
        try insertGroup.execute(.text(name), .text(Text.groupKey(name)), .text(now), .text(uid))
    }

    /// A random (version 4) UUID, lower-case, as Schema/0015 gave the
    /// groups already there.
    private static let newUIDSQL = """
        lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' \
        || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))
        """

    /// A contact just inserted joins the groups whose cards named it
    /// before it arrived.
    func joinPendingGroups(_ contact: Int64, id: String) throws {
        let member = GroupCard.memberPrefix + id
        try joinPending.execute(.int(Int(contact)), .text(member))
        try forgetPending.execute(.text(member))
    }

    /// Takes a group card in (SPEC §Groups as address books hold them):
    /// the group of its UID, else of its name in any case, else a new one,
    /// keeps the card's UID, name and other properties, and gains its
    /// members; a member not here yet waits in `groupPendingMember` until
    /// its contact arrives, and one that names no contact stays there.
    ///
    /// - parameter exactly: true also takes out the members the card does
    ///   not name, for a sync that takes the server's card as it is.
    func write(_ card: GroupCard, exactly: Bool = false, _ db: Database) throws {
        let pk: Int64
        if let uid = card.uid, let known = try Int64.fetchOne(db, sql: "SELECT pk FROM contactGroup WHERE uid = ?", arguments: [uid]) {
            pk = known
            if try Self.pk(named: card.name, db).map({ $0 == known }) ?? true { try Self.rename(pk, to: card.name, db) }
        } else if let named = try Self.pk(named: card.name, db) {
            pk = named
            if let uid = card.uid { try db.execute(sql: "UPDATE contactGroup SET uid = ? WHERE pk = ?", arguments: [uid, pk]) }
        } else {
            try create(card.name, uid: card.uid)
            pk = try Self.existingPK(named: card.name, db)
        }
        try db.execute(sql: "DELETE FROM groupProperty WHERE groupPk = ?", arguments: [pk])
        for (position, line) in card.properties.enumerated() {
            try db.execute(sql: "INSERT INTO groupProperty (groupPk, position, line) VALUES (?, ?, ?)", arguments: [pk, position, line])
        }
        if exactly {
            let named = Set(card.members)
            for current in try Self.cards(pk: pk, db).first?.members ?? [] where !named.contains(current) {
                try db.execute(sql: "DELETE FROM groupPendingMember WHERE groupPk = ? AND member = ?", arguments: [pk, current])
                if let id = GroupCard.contactID(current) {
                    try db.execute(sql: """
                        DELETE FROM groupMember WHERE groupPk = ? AND contactPk = (SELECT pk FROM contact WHERE id = ?)
                        """, arguments: [pk, id])
                }
            }
        }
        for member in card.members {
            let contact = try GroupCard.contactID(member).flatMap {
                try Int64.fetchOne(db.cachedStatement(sql: "SELECT pk FROM contact WHERE id = ?"), arguments: [$0])
            }
            if let contact {
                try Self.addMembers([contact], to: pk, db)
            } else {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO groupPendingMember (groupPk, member) VALUES (?, ?)")
                    .execute(arguments: [pk, member])
            }
        }
    }

    /// Every group as a group card: its members, contacts first (in the
    /// default order), then those that wait or name no contact.
    package static func cards(_ db: Database) throws -> [GroupCard] {
        try cards(pk: nil, db)
    }

    /// The group of `uid`, as a group card.
    package static func card(uid: String, _ db: Database) throws -> GroupCard? {
        guard let pk = try Int64.fetchOne(db, sql: "SELECT pk FROM contactGroup WHERE uid = ?", arguments: [uid]) else { return nil }
        return try cards(pk: pk, db).first
    }

    /// Deletes the group of `uid`; its contacts stay.
    package static func delete(uid: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM contactGroup WHERE uid = ?", arguments: [uid])
    }

    /// The group named `name` in any case, as a group card.
    package static func card(named name: String, _ db: Database) throws -> GroupCard? {
        guard let pk = try pk(named: name, db) else { return nil }
        return try cards(pk: pk, db).first
    }

    /// One group's card (`pk`), or every group's.
    private static func cards(pk: Int64?, _ db: Database) throws -> [GroupCard] {
        var cards: [Int64: GroupCard] = [:], order: [Int64] = []
        try db.forEachRow("SELECT pk, uid, name FROM contactGroup WHERE ?1 IS NULL OR pk = ?1 ORDER BY nameKey", [pk]) { row in
            order.append(row.int64(0))
            cards[row.int64(0)] = GroupCard(uid: row.text(1), name: row.text(2), members: [], properties: [])
        }
        try db.forEachRow("""
            SELECT m.groupPk, c.id FROM groupMember m JOIN contact c ON c.pk = m.contactPk
            WHERE ?1 IS NULL OR m.groupPk = ?1 ORDER BY m.groupPk, c.sortIndex, c.sortKey, c.id
            """, [pk]) { cards[$0.int64(0)]?.members.append(GroupCard.memberPrefix + $0.text(1)) }
        try db.forEachRow("""
            SELECT groupPk, member FROM groupPendingMember WHERE ?1 IS NULL OR groupPk = ?1 ORDER BY groupPk, member
            """, [pk]) { cards[$0.int64(0)]?.members.append($0.text(1)) }
        try db.forEachRow("""
            SELECT groupPk, line FROM groupProperty WHERE ?1 IS NULL OR groupPk = ?1 ORDER BY groupPk, position
            """, [pk]) {
            cards[$0.int64(0)]?.properties.append($0.text(1))
        }
        return order.compactMap { cards[$0] }
    }

    /// Adds the contact to the group, creating the group if need be.
    func add(_ contact: Int64, toGroupNamed name: String) throws {
        let key = Text.groupKey(name)
        // The group is nearly always there already: it is made, and joined
        // then, only when joining it finds none (or the contact in it).
        if try insertMember.executeCountingChanges(.int(Int(contact)), .text(key)) == 0,
           try insertGroup.executeCountingChanges(.text(name), .text(key), .text(now), .null) == 1 {
            try insertMember.execute(.int(Int(contact)), .text(key))
        }
    }

    static func pk(named name: String, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT pk FROM contactGroup WHERE nameKey = ?"), arguments: [Text.groupKey(name)])
    }

    /// The error for a name taken by the group `pk`, naming it as stored.
    static func exists(_ pk: Int64, _ db: Database) throws -> ContactsDBError {
        .groupExists(name: try String.fetchOne(db, sql: "SELECT name FROM contactGroup WHERE pk = ?", arguments: [pk]) ?? "")
    }

    static func existingPK(named name: String, _ db: Database) throws -> Int64 {
        guard let pk = try pk(named: name, db) else { throw ContactsDBError.groupNotFound(name: Text.tidy(name)) }
        return pk
    }

    /// Every group with its uid and member count, in no particular order.
    static func all(_ db: Database) throws -> [ContactGroup] {
        try Row.fetchAll(db, sql: """
            SELECT name, uid, (SELECT count(*) FROM groupMember WHERE groupPk = contactGroup.pk) FROM contactGroup
            """)
            .map { ContactGroup(name: $0[0], uid: $0[1], memberCount: $0[2]) }
    }

    static func rename(_ pk: Int64, to name: String, _ db: Database) throws {
        try db.execute(sql: "UPDATE contactGroup SET name = ?, nameKey = ? WHERE pk = ?", arguments: [name, Text.groupKey(name), pk])
    }

    static func delete(_ pk: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM contactGroup WHERE pk = ?", arguments: [pk])
    }

    /// Those already in the group stay.
    static func addMembers(_ contacts: [Int64], to group: Int64, _ db: Database) throws {
        let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO groupMember (groupPk, contactPk) VALUES (?, ?)")
        for pk in contacts { try insert.execute(arguments: [group, pk]) }
    }

    static func removeMembers(_ contacts: [Int64], from group: Int64, _ db: Database) throws {
        let delete = try db.cachedStatement(sql: "DELETE FROM groupMember WHERE groupPk = ? AND contactPk = ?")
        for pk in contacts { try delete.execute(arguments: [group, pk]) }
    }
}
