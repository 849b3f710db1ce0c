import Foundation
import GRDB

extension ContactStore {
    // MARK: - Linking

    /// Records that contacts of different books are one person (docs/cli.md,
    /// "One person across books: links"), with whoever is linked to any of them
    /// already. Links are local: no card changes, no revision moves, no server
    /// sees them.
    ///
    /// - returns: the ids of the person's cards, in the default order.
    /// - throws: ``ContactsDBError/tooFewToLink(ids:)``,
    ///   ``ContactsDBError/contactsNotFound(ids:)``,
    ///   ``ContactsDBError/linkWithinBook(ids:book:)`` when two of them, or
    ///   of the cards already linked to them, are in one book (merge those
    ///   instead); nothing is written.
    @discardableResult
    public func link(_ ids: [String]) throws -> [String] {
        try link(sets: [ids])[0]
    }

    /// ``link(_:)`` for several sets, all in one transaction: all are
    /// linked, or none.
    @discardableResult
    public func link(sets: [[String]]) throws -> [[String]] {
        let sets = try sets.map { ids in
            var distinct: [String] = []
            for id in ids where !distinct.contains(id) { distinct.append(id) }
            guard distinct.count >= 2 else { throw ContactsDBError.tooFewToLink(ids: distinct) }
            return distinct
        }
        return try write { db in
            try sets.map { ids in
                let pks = try ContactReader.pks(ids: ids, db)
                if let shared = try Self.cardsSharingABook(joining: pks, db) {
                    throw ContactsDBError.linkWithinBook(ids: shared.map(\.id), book: try BookRecords.name(shared[0].bookId, db))
                }
                try LinkRecords.link(pks, db)
                return try LinkRecords.linkedIDs(of: [pks[0]], db)[pks[0]] ?? ids
            }
        }
    }

    /// Takes each contact out of its link and keeps it apart from the cards
    /// it was linked to, for good: no suggestion joins them again (a `link`
    /// naming them does). A contact linked to none is left as it is.
    ///
    /// - returns: each contact given with the ids it was linked to (none
    ///   for one that was not linked).
    /// - throws: ``ContactsDBError/contactsNotFound(ids:)``; nothing is
    ///   written.
    @discardableResult
    public func unlink(_ ids: [String]) throws -> [(id: String, from: [String])] {
        try write { db in
            let pks = try ContactReader.pks(ids: ids, db)
            return try zip(ids, pks).map { id, pk in (id: id, from: try LinkRecords.unlink(pk, db)) }
        }
    }

    /// The ids linked with a contact (its own left out), in the default
    /// order; empty when it is linked to none.
    ///
    /// - throws: ``ContactsDBError/contactsNotFound(ids:)``.
    public func linkedIDs(of id: String) throws -> [String] {
        try read { db in
            let pk = try ContactReader.pks(ids: [id], db)[0]
            return (try LinkRecords.linkedIDs(of: [pk], db)[pk] ?? []).filter { $0 != id }
        }
    }

    /// Links every `certain` duplicate set whose contacts are all in
    /// different books (``DuplicateSet/Action/link``), in one transaction.
    ///
    /// - parameter dryRun: true finds the sets and writes nothing.
    /// - returns: each set linked, its ids in the default order.
    @discardableResult
    public func linkAllCertain(dryRun: Bool = false) throws -> [[String]] {
        let work = { (db: Database) throws -> [[String]] in
            let sets = try Self.duplicates(db).filter { $0.confidence == .certain && $0.action == .link }
            var linked: [[String]] = []
            for set in sets {
                // A set that would give a person two cards of one book is
                // left to `duplicates` and the user.
                let pks = try ContactReader.pks(ids: set.ids, db)
                guard try Self.cardsSharingABook(joining: pks, db) == nil else { continue }
                if !dryRun { try LinkRecords.link(pks, db) }
                linked.append(set.ids)
            }
            return linked
        }
        return try dryRun ? read(work) : write(work)
    }

    // MARK: - Copying

    /// Copies contacts into a book (docs/cli.md, "One person across books:
    /// links"): each a new contact with the same fields and photo, in the
    /// groups of the same names in that book (made when missing), linked to its
    /// original. A copy has an id and a card UID of its own, and none of the
    /// original's other names for its card (``CardIdentity``): it is a card of
    /// its own from now on, edited apart from the original. All in one
    /// transaction.
    ///
    /// - returns: the copies' ids, in the order given.
    /// - throws: ``ContactsDBError/contactsNotFound(ids:)``,
    ///   `.invalidBook(.notFound)`; nothing is written.
    @discardableResult
    public func copy(ids: [String], toBook book: String) throws -> [String] {
        try write { db in
            let target = try BookRecords.existingID(named: book, db)
            let pks = try ContactReader.pks(ids: ids, db)
            let originals = try ContactReader.withChildren(try ContactReader.stored(ids: ids, db), db)
            let byID = Dictionary(originals.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let writer = try ContactWriter(db, book: target)
            let now = Timestamp.string(from: Date())
            var copies: [String] = []
            for (id, pk) in zip(ids, pks) {
                guard var draft = byID[id]?.draft else { continue }
                (draft.id, draft.uid, draft.isFavorite) = (nil, nil, false)
                draft.extra.removeAll(where: CardIdentity.namesTheCard)
                var unusual = UnusualValues()
                let copy = try writer.insert(try ContactValidator.imported(draft, at: "", counting: &unusual), at: "", now: now)
                try LinkRecords.link([pk] + ContactReader.pks(ids: [copy], db), db)
                copies.append(copy)
            }
            return copies
        }
    }

    // MARK: - Non public

    /// The cards that would share a book in the person these contacts
    /// and everyone linked to them make, nil when none would: a person
    /// holds one card of each book.
    static func cardsSharingABook(joining pks: [Int64], _ db: Database) throws -> [LinkRecords.Card]? {
        var all = pks
        for card in try LinkRecords.cards(ofPersonsOf: pks, db).values.joined() where !all.contains(card.pk) {
            all.append(card.pk)
        }
        let cards = try LinkRecords.cards(all, db)
        var byBook: [BookID: [LinkRecords.Card]] = [:]
        for card in cards { byBook[card.bookId, default: []].append(card) }
        return cards.lazy.compactMap { byBook[$0.bookId] }.first { $0.count > 1 }
    }
}
