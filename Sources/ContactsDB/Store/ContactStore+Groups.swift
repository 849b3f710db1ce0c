import Foundation
import GRDB

/// A group and how many contacts it holds.
public struct ContactGroup: Hashable, Sendable, Codable {
    public var name: String
    public var memberCount: Int
}

extension ContactStore {
    // MARK: - Groups

    /// Every group with its member count, in name order.
    public func groups() throws -> [ContactGroup] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT name, (SELECT count(*) FROM groupMember WHERE groupPk = contactGroup.pk) FROM contactGroup
                """)
                .map { ContactGroup(name: $0[0], memberCount: $0[1]) }
                .sorted { Collation.precedes($0.name, $1.name) }
        }
    }

    /// - throws: `.groupExists` when a group has this name in any case.
    public func createGroup(named name: String) throws {
        let name = try ContactValidator.groupName(name, at: "name")
        try write { db in
            if let existing = try GroupWriter.pk(named: name, db) { throw try GroupWriter.exists(existing, db) }
            try GroupWriter(db).create(name)
        }
    }

    /// Renames a group; a change of case alone is allowed.
    public func renameGroup(_ name: String, to newName: String) throws {
        let newName = try ContactValidator.groupName(newName, at: "name")
        try write { db in
            let pk = try GroupWriter.existingPK(named: name, db)
            if let other = try GroupWriter.pk(named: newName, db), other != pk { throw try GroupWriter.exists(other, db) }
            try db.execute(sql: "UPDATE contactGroup SET name = ?, nameKey = ? WHERE pk = ?",
                           arguments: [newName, GroupWriter.key(newName), pk])
        }
    }

    /// Deletes a group; its contacts stay.
    public func deleteGroup(named name: String) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM contactGroup WHERE pk = ?", arguments: [try GroupWriter.existingPK(named: name, db)])
        }
    }

    /// Adds contacts to a group; those already in it stay. Unknown ids or
    /// an unknown group change nothing.
    public func addContacts(ids: [String], toGroup name: String) throws {
        try write { db in
            let group = try GroupWriter.existingPK(named: name, db)
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO groupMember (groupPk, contactPk) VALUES (?, ?)")
            for pk in try ContactReader.pks(ids: ids, db) { try insert.execute(arguments: [group, pk]) }
        }
    }

    /// Removes contacts from a group. Unknown ids or an unknown group
    /// change nothing.
    public func removeContacts(ids: [String], fromGroup name: String) throws {
        try write { db in
            let group = try GroupWriter.existingPK(named: name, db)
            let delete = try db.cachedStatement(sql: "DELETE FROM groupMember WHERE groupPk = ? AND contactPk = ?")
            for pk in try ContactReader.pks(ids: ids, db) { try delete.execute(arguments: [group, pk]) }
        }
    }
}

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

    static func key(_ name: String) -> String { Text.tidy(name).lowercased() }

    /// Creates the group unless one has its name in any case.
    func create(_ name: String) throws {
        try insertGroup.execute(.text(name), .text(Self.key(name)), .text(now))
    }

    /// Adds the contact to the group, creating the group if need be.
    func add(_ contact: Int64, toGroupNamed name: String) throws {
        try create(name)
        try insertMember.execute(.int(Int(contact)), .text(Self.key(name)))
    }

    static func pk(named name: String, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT pk FROM contactGroup WHERE nameKey = ?"), arguments: [key(name)])
    }

    /// The error for a name taken by the group `pk`, naming it as stored.
    static func exists(_ pk: Int64, _ db: Database) throws -> ContactsDBError {
        .groupExists(name: try String.fetchOne(db, sql: "SELECT name FROM contactGroup WHERE pk = ?", arguments: [pk]) ?? "")
    }

    static func existingPK(named name: String, _ db: Database) throws -> Int64 {
        guard let pk = try pk(named: name, db) else { throw ContactsDBError.groupNotFound(name: Text.tidy(name)) }
        return pk
    }
}
