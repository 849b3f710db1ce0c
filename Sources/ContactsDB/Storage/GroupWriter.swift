import Foundation
import GRDB

/// Writes groups and memberships; names are unique whatever their case.
struct GroupWriter {
    private let insertGroup, insertMember: SQLiteStatement
    /// The groups a write creates are created at the write's time.
    private let now = Timestamp.string(from: Date())

    init(_ db: Database) throws {
        insertGroup = try SQLiteStatement(db, "INSERT OR IGNORE INTO contactGroup (name, nameKey, createdAt) VALUES (?, ?, ?)")
        insertMember = try SQLiteStatement(db, """
            INSERT OR IGNORE INTO groupMember (groupPk, contactPk)
            SELECT pk, ? FROM contactGroup WHERE nameKey = ?
            """)
    }

    /// Creates the group unless one has its name in any case.
    func create(_ name: String) throws {
        try insertGroup.execute(.text(name), .text(Text.groupKey(name)), .text(now))
    }

    /// Adds the contact to the group, creating the group if need be.
    func add(_ contact: Int64, toGroupNamed name: String) throws {
        try create(name)
        try insertMember.execute(.int(Int(contact)), .text(Text.groupKey(name)))
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

    /// Every group with its member count, in no particular order.
    static func all(_ db: Database) throws -> [ContactGroup] {
        try Row.fetchAll(db, sql: """
            SELECT name, (SELECT count(*) FROM groupMember WHERE groupPk = contactGroup.pk) FROM contactGroup
            """)
            .map { ContactGroup(name: $0[0], memberCount: $0[1]) }
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
