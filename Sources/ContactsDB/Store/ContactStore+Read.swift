import Foundation
import GRDB

extension ContactStore {
    /// The contact with this id and all its children, or nil.
    public func contact(id: String) throws -> Contact? {
        try read { db in try ContactReader.contacts(ids: [id], db).first }
    }

    /// The most phones, emails, addresses and messengers any one contact
    /// has, for writers that give each its own columns.
    public func maxChildCounts() throws -> ChildCounts {
        try read(ContactReader.maxChildCounts)
    }

    /// The contacts with these ids, in the order given; unknown ids are
    /// skipped.
    public func contacts(ids: [String]) throws -> [Contact] {
        try read { db in try ContactReader.contacts(ids: ids, db) }
    }
}
