import Foundation
import GRDB

extension ContactStore {
    // MARK: - Favorites

    /// The favorites, in the order the user set.
    public func favorites() throws -> [Contact] {
        try read { db in try ContactReader.withChildren(try ContactReader.favorites(db), readingPhotos: false, db) }
    }

    /// Makes the contacts favorites, appended in the order given; those
    /// that already are keep their place. Unknown ids change nothing.
    public func favorite(ids: [String]) throws {
        try write { db in
            let favorites = FavoriteList(db)
            for pk in try ContactReader.pks(ids: ids, db) { try favorites.append(pk) }
        }
    }

    /// Moves a contact (making it a favorite if it is not) to `position`
    /// among the favorites, counted from 1; a position past the end puts it
    /// last.
    public func moveFavorite(id: String, to position: Int) throws {
        guard position >= 1 else {
            throw ContactsDBError.invalidContact(field: "position", reason: "\(position) is not a position; favorites are counted from 1.")
        }
        try write { db in
            let favorites = FavoriteList(db)
            let pk = try ContactReader.pks(ids: [id], db)[0]
            try favorites.remove(pk)
            try favorites.insert(pk, at: position)
        }
    }

    /// Removes the contacts from the favorites; the others close up.
    public func unfavorite(ids: [String]) throws {
        try write { db in
            let favorites = FavoriteList(db)
            for pk in try ContactReader.pks(ids: ids, db) { try favorites.remove(pk) }
        }
    }
}
