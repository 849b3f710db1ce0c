import Foundation
import GRDB

/// Writes contacts' photos into `contactPhoto` (Schema/0008), beside the
/// contact row so that a page of contacts never reads image bytes.
final class PhotoWriter {
    private let upsert, delete: SQLiteStatement

    init(_ db: Database) throws {
        upsert = try SQLiteStatement(db, """
            INSERT OR REPLACE INTO contactPhoto (contactPk, mediaType, original, thumbnail, thumbnailType, width, height)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        delete = try SQLiteStatement(db, "DELETE FROM contactPhoto WHERE contactPk = ?")
    }

    /// Stores `photo` for the contact, or removes its photo when nil.
    /// `image` is what was decoded from it: nil keeps the bytes without a
    /// thumbnail or size.
    func write(pk: Int64, _ photo: ContactPhoto?, _ image: PhotoImage?) throws {
        guard let photo else {
            try delete.execute(.int(Int(pk)))
            return
        }
        try upsert.execute(
            .int(Int(pk)), .text(photo.mediaType), .blob(photo.data), .blob(image?.thumbnail.data),
            .text(image?.thumbnail.mediaType), .int(image?.width), .int(image?.height))
    }
}

/// Reads photos and thumbnails, one statement for any number of contacts.
enum PhotoReader {
    /// Whether the contact with this key has a photo, read without its bytes.
    static func exists(pk: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM contactPhoto WHERE contactPk = ?)"),
                          arguments: [pk]) ?? false
    }

    /// The originals of the contacts with these keys that have one.
    static func originals(pks: [Int64], _ db: Database) throws -> [Int64: ContactPhoto] {
        var result: [Int64: ContactPhoto] = [:]
        try db.forEachRow(sql(columns: "mediaType, original", pks: pks), [keys(pks)]) {
            result[$0.int64(0)] = ContactPhoto(mediaType: $0.text(1), data: $0.blob(2))
        }
        return result
    }

    /// The thumbnails of the contacts with these keys that have one.
    static func thumbnails(pks: [Int64], _ db: Database) throws -> [Int64: ContactThumbnail] {
        var result: [Int64: ContactThumbnail] = [:]
        // A page none of whose contacts has a photo asks for nothing.
        guard !pks.isEmpty else { return result }
        try db.forEachRow(sql(columns: "thumbnailType, thumbnail", pks: pks) + " AND thumbnail IS NOT NULL", [keys(pks)]) {
            result[$0.int64(0)] = ContactThumbnail(mediaType: $0.text(1), data: $0.blob(2))
        }
        return result
    }

    private static func sql(columns: String, pks: [Int64]) -> String {
        "SELECT contactPk, \(columns) FROM contactPhoto WHERE contactPk IN (SELECT value FROM json_each(?))"
    }

    private static func keys(_ pks: [Int64]) -> String {
        "[" + pks.map(String.init).joined(separator: ",") + "]"
    }
}
