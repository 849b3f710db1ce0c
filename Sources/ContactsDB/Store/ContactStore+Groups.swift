import Foundation
import GRDB

extension ContactStore {
    // MARK: - Groups

    /// Every group with its member count, in name order.
    public func groups() throws -> [ContactGroup] {
        try read { db in
            try GroupWriter.all(db).sorted { Collation.precedes($0.name, $1.name) }
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
            try GroupWriter.rename(pk, to: newName, db)
        }
    }

    /// Deletes a group; its contacts stay.
    public func deleteGroup(named name: String) throws {
        try write { db in
            try GroupWriter.delete(try GroupWriter.existingPK(named: name, db), db)
        }
    }

    /// Adds contacts to a group; those already in it stay. Unknown ids or
    /// an unknown group change nothing.
    public func addContacts(ids: [String], toGroup name: String) throws {
        try write { db in
            let group = try GroupWriter.existingPK(named: name, db)
            try GroupWriter.addMembers(try ContactReader.pks(ids: ids, db), to: group, db)
        }
    }

    /// Removes contacts from a group. Unknown ids or an unknown group
    /// change nothing.
    public func removeContacts(ids: [String], fromGroup name: String) throws {
        try write { db in
            let group = try GroupWriter.existingPK(named: name, db)
            try GroupWriter.removeMembers(try ContactReader.pks(ids: ids, db), from: group, db)
        }
    }
}
