import Foundation
import GRDB

/// Deleted contacts in and out of the trash (``TrashRecords``): each kept
/// as its draft in the JSON format, without the photo, whose bytes are
/// kept as stored.
package enum TrashedCards {
    /// One deletion as the trash holds it, its card read.
    package struct Entry {
        package var pk: Int64
        package var row: TrashRecords.Row
        package var draft: ContactDraft
    }

    /// Keeps the contacts of these keys, about to be deleted, unless the
    /// trash keeps nothing; drops what is older than the trash keeps.
    package static func keep(_ pks: [Int64], by source: ChangeSource, _ db: Database) throws {
        guard try TrashRecords.days(db) > 0, !pks.isEmpty else { return }
        _ = try TrashRecords.empty(before: TrashRecords.cutoff(db), db)
        let stored = try ContactReader.stored(pks: pks, db)
        let keys = stored.map { ($0.pk, $0.book) }
        let linked = try LinkRecords.linkedIDs(of: pks, db)
        let favorites = try TrashRecords.favoritePositions(pks, db)
        let now = Date()
        for ((pk, book), contact) in zip(keys, try ContactReader.withChildren(stored, db)) {
            var draft = contact.draft
            let photo = draft.photo
            draft.photo = nil
            try TrashRecords.insert(TrashRecords.Row(
                id: contact.id, bookId: book, bookName: contact.book, displayName: contact.displayName,
                card: draft.jsonText, photo: photo, favoritePosition: favorites[pk],
                linkedIDs: (linked[pk] ?? []).filter { $0 != contact.id }, createdAt: contact.createdAt,
                updatedAt: contact.updatedAt, revision: contact.revision, deletedAt: now, deletedBy: source), db)
        }
    }

    /// The newest deletion of each id, in the order given.
    ///
    /// - throws: `.notInTrash` naming every id the trash does not hold.
    package static func entries(ids: [String], _ db: Database) throws -> [Entry] {
        let found = try TrashRecords.rows(ids: ids, db)
        var seen: Set<String> = []
        let missing = ids.filter { found[$0] == nil && seen.insert($0).inserted }
        guard missing.isEmpty else { throw ContactsDBError.notInTrash(ids: missing) }
        return try ids.compactMap { found[$0] }.map { pk, row in
            var draft = try ContactJSON.decode(Data(row.card.utf8), source: "trash").draft
            draft.photo = row.photo
            return Entry(pk: pk, row: row, draft: draft)
        }
    }
}
