import Foundation
import GRDB

/// Writes groups and memberships. A group is in one book, as its members
/// are; names are unique in their book whatever their case.
package struct GroupWriter {
    /// The book whose groups a group card names and a new group joins.
    package let book: BookID
    private let insertGroup, insertMember, joinPending, forgetPending: SQLiteStatement
    /// The groups a write creates are created at the write's time.
    private let now = Timestamp.string(from: Date())

    init(_ db: Database, book: BookID) throws {
        self.book = book
        // The uid is made only when the group is: a membership of a group
        // that exists costs no UUID.
        insertGroup = try SQLiteStatement(db, """
            INSERT INTO contactGroup (name, nameKey, createdAt, uid, bookId)
            SELECT ?1, ?2, ?3, coalesce(?4, \(Self.newUIDSQL)), ?5
            WHERE NOT EXISTS (SELECT 1 FROM contactGroup WHERE bookId = ?5 AND nameKey = ?2)
            """)
        joinPending = try SQLiteStatement(db, """
            INSERT OR IGNORE INTO groupMember (groupPk, contactPk)
            SELECT p.groupPk, ?1 FROM groupPendingMember p JOIN contactGroup g ON g.pk = p.groupPk
            WHERE p.member = ?2 AND g.bookId = ?3
            """)
        forgetPending = try SQLiteStatement(db, """
            DELETE FROM groupPendingMember WHERE member = ?1 AND groupPk IN (SELECT pk FROM contactGroup WHERE bookId = ?2)
            """)
        // One row of values, not a select: as the table has a trigger, an
        // insert from a select copies the selected rows to a temporary
        // table first, which cost half again per membership. A group not
        // found gives no key, and the row is ignored.
        insertMember = try SQLiteStatement(db, """
            INSERT OR IGNORE INTO groupMember (groupPk, contactPk)
            VALUES ((SELECT pk FROM contactGroup WHERE bookId = ?3 AND nameKey = ?2), ?1)
            """)
    }

    /// Creates the group, with `uid` or a new random UUID, unless one has
    /// its name in any case.
    func create(_ name: String, uid: String? = nil) throws {
        try insertGroup.execute(.text(name), .text(Text.groupKey(name)), .text(now), .text(uid), .int(Int(book.rawValue)))
    }

    /// A random (version 4) UUID, lower-case, as Schema/0015 gave the
    /// groups already there.
    private static let newUIDSQL = """
        lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' \
        || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))
        """

    /// A contact just inserted into this book joins the groups whose cards
    /// named its card's UID before it arrived.
    func joinPendingGroups(_ contact: Int64, cardUID: String) throws {
        let member = GroupCard.memberPrefix + cardUID
        try joinPending.execute(.int(Int(contact)), .text(member), .int(Int(book.rawValue)))
        try forgetPending.execute(.text(member), .int(Int(book.rawValue)))
    }

    /// Takes a group card in (docs/cli.md, "Favorites and groups"): the group
    /// of its UID, else of its name in any case, else a new one, keeps the
    /// card's UID, name and other properties, and gains its members; a member
    /// not here yet waits in `groupPendingMember` until its contact arrives,
    /// and one that names no contact stays there.
    ///
    /// - parameter exactly: true also takes out the members the card does
    ///   not name, for a sync that takes the server's card as it is.
    /// - parameter matchingName: false for a card that is not the group of
    ///   its name (another client's card of that name): a new group, told
    ///   apart by its name here when the name is taken.
    func write(_ card: GroupCard, exactly: Bool = false, matchingName: Bool = true, _ db: Database) throws {
        let pk: Int64
        if let uid = card.uid, let known = try Self.pk(uid: uid, book: book, db) {
            pk = known
            try name(pk, as: card.name, db)
        } else if matchingName, let named = try Self.pk(named: card.name, book: book, db) {
            pk = named
            if let uid = card.uid { try db.execute(sql: "UPDATE contactGroup SET uid = ? WHERE pk = ?", arguments: [uid, pk]) }
        } else {
            let name = try Self.freeName(for: card.name, book: book, db)
            try create(name, uid: card.uid)
            pk = try Self.existingPK(named: name, book: book, db)
            if name != card.name { try db.execute(sql: "UPDATE contactGroup SET cardName = ? WHERE pk = ?", arguments: [card.name, pk]) }
        }
        try db.execute(sql: "DELETE FROM groupProperty WHERE groupPk = ?", arguments: [pk])
        for (position, line) in card.properties.enumerated() {
            try db.execute(sql: "INSERT INTO groupProperty (groupPk, position, line) VALUES (?, ?, ?)", arguments: [pk, position, line])
        }
        if exactly {
            let named = Set(card.members)
            for current in try Self.cards(pk: pk, book: book, db).first?.members ?? [] where !named.contains(current) {
                try db.execute(sql: "DELETE FROM groupPendingMember WHERE groupPk = ? AND member = ?", arguments: [pk, current])
                if let contact = try GroupCard.contactID(current).flatMap({ try Self.contactPK(cardUID: $0, book: book, db) }) {
                    try db.execute(sql: "DELETE FROM groupMember WHERE groupPk = ? AND contactPk = ?", arguments: [pk, contact])
                }
            }
        }
        for member in card.members {
            let contact = try GroupCard.contactID(member).flatMap { try Self.contactPK(cardUID: $0, book: book, db) }
            if let contact {
                try Self.addMembers([contact], to: pk, db)
            } else {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO groupPendingMember (groupPk, member) VALUES (?, ?)")
                    .execute(arguments: [pk, member])
            }
        }
    }

    /// Gives the group `pk` the name its card has: that name where no other
    /// group of the book has it, else a name told apart (``freeName``),
    /// the card's kept as its `cardName`.
    private func name(_ pk: Int64, as cardName: String, _ db: Database) throws {
        let current = try Row.fetchOne(db, sql: "SELECT name, cardName FROM contactGroup WHERE pk = ?", arguments: [pk])
        let (name, kept): (String?, String?) = (current?[0], current?[1])
        if try Self.pk(named: cardName, book: book, db).map({ $0 == pk }) ?? true {
            try Self.rename(pk, to: cardName, db)
        } else if kept != cardName || name == nil {
            try Self.rename(pk, to: try Self.freeName(for: cardName, book: book, db), db)
            try db.execute(sql: "UPDATE contactGroup SET cardName = ? WHERE pk = ?", arguments: [cardName, pk])
        }
    }

    /// `name` where no group of `book` has it in any case, else the first
    /// of `name (2)`, `name (3)`, … that is free.
    static func freeName(for name: String, book: BookID, _ db: Database) throws -> String {
        var candidate = name, number = 1
        while try pk(named: candidate, book: book, db) != nil {
            number += 1
            candidate = "\(name) (\(number))"
        }
        return candidate
    }

    /// The contact of this book whose card has `uid`: by its own uid, else
    /// by its id where it has none.
    private static func contactPK(cardUID uid: String, book: BookID, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT pk FROM contact WHERE uid = ?2 AND bookId = ?1
            UNION ALL SELECT pk FROM contact WHERE id = ?2 AND uid IS NULL AND bookId = ?1
            LIMIT 1
            """), arguments: [book, uid])
    }

    /// Every group of `book` (nil: of every book) as a group card: its
    /// members, contacts first (in the default order), then those that wait
    /// or name no contact.
    package static func cards(book: BookID?, _ db: Database) throws -> [GroupCard] {
        try cards(pk: nil, book: book, db)
    }

    /// The group of `uid` in `book`, as a group card.
    package static func card(uid: String, book: BookID, _ db: Database) throws -> GroupCard? {
        guard let pk = try pk(uid: uid, book: book, db) else { return nil }
        return try cards(pk: pk, book: book, db).first
    }

    /// Gives the group of `uid` in `book` a new random UID, made as a new
    /// group's is; returns it, nil when there is no such group.
    package static func renewUID(_ uid: String, book: BookID, _ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "UPDATE contactGroup SET uid = \(newUIDSQL) WHERE bookId = ? AND uid = ? RETURNING uid",
                            arguments: [book, uid])
    }

    /// Deletes the group of `uid` in `book`; its contacts stay.
    package static func delete(uid: String, book: BookID, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM contactGroup WHERE bookId = ? AND uid = ?", arguments: [book, uid])
    }

    /// The group of `book` named `name` in any case, as a group card.
    package static func card(named name: String, book: BookID, _ db: Database) throws -> GroupCard? {
        guard let pk = try pk(named: name, book: book, db) else { return nil }
        return try cards(pk: pk, book: book, db).first
    }

    /// One group's card (`pk`), or every group's of `book` (nil: of every
    /// book); each statement reads the rows of those groups only.
    private static func cards(pk: Int64?, book: BookID?, _ db: Database) throws -> [GroupCard] {
        var cards: [Int64: GroupCard] = [:], order: [Int64] = []
        let groups = "SELECT pk FROM contactGroup WHERE (?1 IS NULL OR pk = ?1) AND (?2 IS NULL OR bookId = ?2)"
        try db.forEachRow("""
            SELECT pk, uid, coalesce(cardName, name) FROM contactGroup WHERE pk IN (\(groups)) ORDER BY nameKey, bookId
            """, [pk, book]) { row in
            order.append(row.int64(0))
            // A group told apart here by its name keeps its card's.
            cards[row.int64(0)] = GroupCard(uid: row.text(1), name: row.text(2), members: [], properties: [])
        }
        try db.forEachRow("""
            SELECT m.groupPk, coalesce(c.uid, c.id) FROM groupMember m JOIN contact c ON c.pk = m.contactPk
            WHERE m.groupPk IN (\(groups)) ORDER BY m.groupPk, c.sortIndex, c.sortKey, c.id
            """, [pk, book]) { cards[$0.int64(0)]?.members.append(GroupCard.memberPrefix + $0.text(1)) }
        try db.forEachRow("""
            SELECT groupPk, member FROM groupPendingMember WHERE groupPk IN (\(groups)) ORDER BY groupPk, member
            """, [pk, book]) { cards[$0.int64(0)]?.members.append($0.text(1)) }
        try db.forEachRow("""
            SELECT groupPk, line FROM groupProperty WHERE groupPk IN (\(groups)) ORDER BY groupPk, position
            """, [pk, book]) {
            cards[$0.int64(0)]?.properties.append($0.text(1))
        }
        return order.compactMap { cards[$0] }
    }

    /// Adds the contact, which is in `book`, to its group named `name`,
    /// creating the group if need be.
    func add(_ contact: Int64, inBook book: BookID, toGroupNamed name: String) throws {
        let key = Text.groupKey(name)
        // The group is nearly always there already: it is made, and joined
        // then, only when joining it finds none (or the contact in it).
        if try insertMember.executeCountingChanges(.int(Int(contact)), .text(key), .int(Int(book.rawValue))) == 0,
           try insertGroup.executeCountingChanges(.text(name), .text(key), .text(now), .null, .int(Int(book.rawValue))) == 1 {
            try insertMember.execute(.int(Int(contact)), .text(key), .int(Int(book.rawValue)))
        }
    }

    static func pk(named name: String, book: BookID, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT pk FROM contactGroup WHERE bookId = ? AND nameKey = ?"),
                           arguments: [book, Text.groupKey(name)])
    }

    static func pk(uid: String, book: BookID, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT pk FROM contactGroup WHERE bookId = ? AND uid = ?"),
                           arguments: [book, uid])
    }

    /// The error for a name taken by the group `pk`, naming it as stored.
    static func exists(_ pk: Int64, _ db: Database) throws -> ContactsDBError {
        .groupExists(name: try String.fetchOne(db, sql: "SELECT name FROM contactGroup WHERE pk = ?", arguments: [pk]) ?? "")
    }

    static func existingPK(named name: String, book: BookID, _ db: Database) throws -> Int64 {
        guard let pk = try pk(named: name, book: book, db) else { throw ContactsDBError.groupNotFound(name: Text.tidy(name)) }
        return pk
    }

    /// The group named `name` in `book`, or in whichever book has one of
    /// that name when `book` is nil.
    ///
    /// - throws: `.groupNotFound`; `.ambiguousGroup` when several books
    ///   have one and no book was named.
    static func existingPK(named name: String, inBook book: String?, _ db: Database) throws -> Int64 {
        if let book { return try existingPK(named: name, book: try BookRecords.existingID(named: book, db), db) }
        var found: [(pk: Int64, book: String)] = []
        try db.forEachRow("""
            SELECT g.pk, b.name FROM contactGroup g JOIN book b ON b.id = g.bookId WHERE g.nameKey = ? ORDER BY b.nameKey
            """, [Text.groupKey(name)]) { found.append(($0.int64(0), $0.text(1))) }
        switch found.count {
        case 0: throw ContactsDBError.groupNotFound(name: Text.tidy(name))
        case 1: return found[0].pk
        default: throw ContactsDBError.ambiguousGroup(name: Text.tidy(name), books: found.map(\.book))
        }
    }

    /// - throws: `.groupNotFound` when no book has a group of that name.
    static func requireExists(named name: String, _ db: Database) throws {
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM contactGroup WHERE nameKey = ?)"),
                                arguments: [Text.groupKey(name)]) ?? false
        else { throw ContactsDBError.groupNotFound(name: Text.tidy(name)) }
    }

    /// The names of the contact's groups.
    static func names(ofContact pk: Int64, _ db: Database) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: """
            SELECT g.name FROM groupMember m JOIN contactGroup g ON g.pk = m.groupPk WHERE m.contactPk = ?
            """), arguments: [pk])
    }

    /// The book of the group `pk`.
    static func book(ofGroup pk: Int64, _ db: Database) throws -> BookID {
        try BookID.fetchOne(db.cachedStatement(sql: "SELECT bookId FROM contactGroup WHERE pk = ?"), arguments: [pk]) ?? BookID(rawValue: 0)
    }

    /// Every group with its book, uid and member count, in no particular
    /// order.
    static func all(_ db: Database) throws -> [ContactGroup] {
        try Row.fetchAll(db, sql: """
            SELECT g.name, g.uid, (SELECT count(*) FROM groupMember WHERE groupPk = g.pk), b.name
            FROM contactGroup g JOIN book b ON b.id = g.bookId
            """)
            .map { ContactGroup(name: $0[0], uid: $0[1], memberCount: $0[2], book: $0[3]) }
    }

    static func rename(_ pk: Int64, to name: String, _ db: Database) throws {
        try db.execute(sql: "UPDATE contactGroup SET name = ?, nameKey = ?, cardName = NULL WHERE pk = ?",
                       arguments: [name, Text.groupKey(name), pk])
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
