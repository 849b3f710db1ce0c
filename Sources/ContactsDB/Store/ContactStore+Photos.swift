import Foundation
import GRDB

extension ContactStore {
    // MARK: - Photos

    /// A contact with its photo's thumbnail, for a list that shows them.
    public struct ContactWithThumbnail: Hashable, Sendable {
        /// The contact as a list query reads it.
        public var contact: Contact
        /// Nil when the contact has no photo, or one that could not be
        /// decoded (`contact.hasPhoto` tells the two apart).
        public var thumbnail: ContactThumbnail?
    }

    /// The page of contacts `query` selects, as ``contacts(matching:includingChildren:)``
    /// reads them, each with its thumbnail: one more statement for the page,
    /// and no original image bytes read.
    public func contactsWithThumbnails(
        matching query: ContactQuery, includingChildren: Bool = true
    ) throws -> [ContactWithThumbnail] {
        try read { db in
            var (pks, contacts) = try page(query, includingChildren: includingChildren, db)
            // By index: a zip would copy each contact to look at one field.
            let thumbnails = try PhotoReader.thumbnails(pks: pks.indices.filter { contacts[$0].hasPhoto }.map { pks[$0] }, db)
            return .moving(&contacts) { index, contact in ContactWithThumbnail(contact: contact, thumbnail: thumbnails[pks[index]]) }
        }
    }

    /// The contact's photo as it was given, or nil when it has none.
    ///
    /// - throws: `.contactsNotFound` for an unknown id.
    public func photo(id: String) throws -> ContactPhoto? {
        try read { db in try PhotoReader.originals(pks: try ContactReader.pks(ids: [id], db), db).values.first }
    }

    /// The contact's thumbnail, or nil when it has no photo or one that
    /// could not be decoded.
    ///
    /// - throws: `.contactsNotFound` for an unknown id.
    public func thumbnail(id: String) throws -> ContactThumbnail? {
        try read { db in try PhotoReader.thumbnails(pks: try ContactReader.pks(ids: [id], db), db).values.first }
    }

    /// Gives the contact `data` as its photo, replacing any it had, with a
    /// thumbnail made from it.
    ///
    /// - throws: `.invalidPhoto` when `data` is not a photo the engine takes
    ///   (docs/cli.md, "Photos"), or `.contactsNotFound`; nothing is written.
    @discardableResult
    public func setPhoto(id: String, data: Data) throws -> Contact {
        try update(id: id) { $0.photo = ContactPhoto(data: data) }
    }

    /// Removes the contact's photo, if it has one.
    ///
    /// - throws: `.contactsNotFound` for an unknown id.
    @discardableResult
    public func removePhoto(id: String) throws -> Contact {
        try update(id: id) { $0.photo = nil }
    }
}
