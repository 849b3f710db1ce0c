import Foundation
import GRDB

extension ContactStore {
    // MARK: - Favorites

    /// The favorites, in the order the user set.
    public func favorites() throws -> [Contact] {
        try read { db in
            let sql = "SELECT \(ContactReader.contactColumns) FROM contact WHERE favoritePosition IS NOT NULL ORDER BY favoritePosition"
            return try ContactReader.withChildren(try ContactReader.fetch(sql, [], db), db)
        }
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

/// The favorites' positions: 1, 2, 3… with no gaps, in `contact.favoritePosition`.
struct FavoriteList {
    let db: Database

    init(_ db: Database) { self.db = db }

    func position(of pk: Int64) throws -> Int? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT favoritePosition FROM contact WHERE pk = ?"), arguments: [pk])
    }

    /// Puts the contact last, unless it is a favorite already.
    func append(_ pk: Int64) throws {
        try db.cachedStatement(sql: """
            UPDATE contact SET favoritePosition = (\(Self.nextPositionSQL)) WHERE pk = ? AND favoritePosition IS NULL
            """).execute(arguments: [pk])
    }

    /// The WHERE lets max() read the partial index instead of every row.
    static let nextPositionSQL =
        "SELECT coalesce(max(favoritePosition), 0) + 1 FROM contact WHERE favoritePosition IS NOT NULL"

    func insert(_ pk: Int64, at position: Int) throws {
        let target = min(position, try Int.fetchOne(db.cachedStatement(sql: Self.nextPositionSQL)) ?? 1)
        try db.execute(sql: "UPDATE contact SET favoritePosition = favoritePosition + 1 WHERE favoritePosition >= ?",
                       arguments: [target])
        try db.execute(sql: "UPDATE contact SET favoritePosition = ? WHERE pk = ?", arguments: [target, pk])
    }

    func remove(_ pk: Int64) throws {
        guard let old = try position(of: pk) else { return }
        try db.cachedStatement(sql: "UPDATE contact SET favoritePosition = NULL WHERE pk = ?").execute(arguments: [pk])
        try db.cachedStatement(sql: "UPDATE contact SET favoritePosition = favoritePosition - 1 WHERE favoritePosition > ?")
            .execute(arguments: [old])
    }
}
