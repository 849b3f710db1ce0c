import Foundation
import GRDB

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
