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

    /// Puts a deleted contact back into `writer`'s book as it was when
    /// deleted (its id, unless `asNew`; its photo, groups, place among the
    /// favorites, `createdAt` and `updatedAt`) and out of the trash; its
    /// links are the caller's. Under its own id it keeps its history.
    ///
    /// - returns: its id and key.
    package static func bringBack(_ entry: Entry, asNew: Bool, into writer: ContactWriter,
                                  _ db: Database) throws -> (id: String, pk: Int64) {
        var draft = entry.draft
        if asNew { (draft.id, draft.uid) = (nil, nil) }
        var unusual = UnusualValues()
        let id = try writer.insert(try ContactValidator.imported(draft, at: "", counting: &unusual), at: "",
                                   now: Timestamp.string(from: entry.row.createdAt))
        let pk = try ContactReader.pks(ids: [id], db)[0]
        try ContactWriter.setUpdatedAt(entry.row.updatedAt, ofContact: pk, db)
        if let position = entry.row.favoritePosition { try FavoriteList(db).insert(pk, at: position) }
        try TrashRecords.remove(pk: entry.pk, db)
        if !asNew { try TrashRecords.recordReturn(of: id, at: try ChangeLog.revision(db), db) }
        return (id, pk)
    }

    /// The newest deletion of each id, in the order given.
    ///
    /// - throws: `.notInTrash` naming every id the trash does not hold.
    package static func entries(ids: [String], _ db: Database) throws -> [Entry] {
        let found = try TrashRecords.rows(ids: ids, db)
        var seen: Set<String> = []
        let missing = ids.filter { found[$0] == nil && seen.insert($0).inserted }
        guard missing.isEmpty else { throw ContactsDBError.notInTrash(ids: missing) }
        return try ids.compactMap { found[$0] }.map(entry)
    }

    /// The newest deletion of `id`, if the trash holds one: a sync asks
    /// for every card it stores, so an id never deleted costs one seek.
    package static func entry(id: String, _ db: Database) throws -> Entry? {
        guard try TrashRecords.holds(id: id, db) else { return nil }
        return try TrashRecords.rows(ids: [id], db)[id].map(entry)
    }

    private static func entry(_ pk: Int64, _ row: TrashRecords.Row) throws -> Entry {
        var draft = try ContactJSON.decode(Data(row.card.utf8), source: "trash").draft
        draft.photo = row.photo
        return Entry(pk: pk, row: row, draft: draft)
    }
}
