import Foundation
import GRDB

extension ContactStore {
    // MARK: - Finding

    /// The sets of contacts that are probably one person, with why
    /// (docs/cli.md, "Duplicates and merging"): in the order of their first
    /// contact in the default sort, each set's ids in that sort. A name alone
    /// never makes a set.
    ///
    /// - parameter books: only the contacts of these books; nil for all.
    public func duplicates(inBooks books: [String]? = nil) throws -> [DuplicateSet] {
        guard let books else { return try read(Self.duplicates) }
        let kept = Set(try ids(matching: ContactQuery().filter(.books(books))))
        return try read(Self.duplicates).compactMap { set in
            var set = set
            set.ids = set.ids.filter(kept.contains)
            return set.ids.count > 1 ? set : nil
        }
    }

    // MARK: - Merging

    /// Merges contacts into one in one transaction (docs/cli.md, "Duplicates
    /// and merging"): the survivor takes each value it lacks from the others in
    /// the order given, unions their lists and groups, is a favorite at the
    /// best place if any was, and keeps its photo (else takes the first
    /// other's); the others are deleted. A merge record keeps every contact as
    /// it was, for ``unmerge(_:)``.
    ///
    /// - parameter ids: the contacts to merge, at least two with `into`.
    /// - parameter into: the survivor; the first id when nil.
    /// - parameter dryRun: true works out the survivor and writes nothing.
    /// - throws: ``ContactsDBError/tooFewToMerge(ids:)``,
    ///   ``ContactsDBError/contactsNotFound(ids:)``; nothing is written.
    @discardableResult
    public func merge(_ ids: [String], into: String? = nil, dryRun: Bool = false) throws -> MergeResult {
        var distinct: [String] = []
        for id in [into].compactMap({ $0 }) + ids where !distinct.contains(id) { distinct.append(id) }
        guard distinct.count >= 2 else { throw ContactsDBError.tooFewToMerge(ids: distinct) }
        do {
            return try write(by: .merge) { db in
                var result = try Self.merge(distinct, db)
                if dryRun {
                    result.mergeID = nil
                    throw DryRun(result: result)
                }
                return result
            }
        } catch let dryRun as DryRun {
            return dryRun.result
        }
    }

    /// Merges every `certain` set, each into its first contact, each its
    /// own merge record; all in one transaction. A set whose contacts are
    /// in several books merges each book's contacts into that book's first;
    /// one whose contacts are all in different books is left to
    /// ``linkAllCertain(dryRun:)``.
    @discardableResult
    public func mergeAllCertain(dryRun: Bool = false) throws -> [MergeResult] {
        do {
            return try write(by: .merge) { db in
                // Each book's contacts of a set merge among themselves; cards
                // of other books are left to link.
                let sets = try Self.duplicates(db).filter { $0.confidence == .certain && $0.action == .merge }
                var results: [MergeResult] = []
                for set in sets {
                    let cards = try LinkRecords.cards(try ContactReader.pks(ids: set.ids, db), db)
                    var books: [BookID] = []
                    for card in cards where !books.contains(card.bookId) { books.append(card.bookId) }
                    for book in books {
                        let ids = cards.filter { $0.bookId == book }.map(\.id)
                        if ids.count > 1 { results.append(try Self.merge(ids, db)) }
                    }
                }
                if dryRun {
                    for index in results.indices { results[index].mergeID = nil }
                    throw DryRunAll(results: results)
                }
                return results
            }
        } catch let dryRun as DryRunAll {
            return dryRun.results
        }
    }

    /// The merges not taken back, oldest first.
    public func merges() throws -> [MergeRecord] {
        try read(MergeRecords.all)
    }

    /// Takes a merge back in one transaction: every merged contact comes
    /// back as it was just before the merge (id, fields, photo, groups,
    /// times, favorite place, links), and the survivor as it was, unless it
    /// was edited or deleted since, when it is left as it is (its links
    /// are put back as they were before the merge either way).
    ///
    /// - throws: ``ContactsDBError/mergeNotFound(id:)``,
    ///   ``ContactsDBError/mergedContactExists(mergeID:id:)``.
    @discardableResult
    public func unmerge(_ mergeID: Int) throws -> UnmergeResult {
        try write(by: .unmerge) { db in
            guard let stored = try MergeRecords.load(id: mergeID, db), let survivor = stored.parts.first else {
                throw ContactsDBError.mergeNotFound(id: mergeID)
            }
            let merged = stored.parts.dropFirst()
            if let taken = try ContactReader.stored(ids: merged.map(\.contactID), db).first {
                throw ContactsDBError.mergedContactExists(mergeID: mergeID, id: taken.contact.id)
            }
            let current = try ContactReader.stored(ids: [survivor.contactID], db).first
            let writer = try ContactWriter(db, book: try Self.book(of: survivor, now: current?.pk, db))
            var places: [(pk: Int64, position: Int?)] = []
            let restoresSurvivor = current?.contact.revision == stored.intoRevision
            if let current, restoresSurvivor {
                try writer.replaceKeepingHistory(pk: current.pk, try Self.restored(survivor, db),
                                                 createdAt: current.contact.createdAt, updatedAt: Date(), db)
                try MergeRecords.restoreTimes(pk: current.pk, survivor, db)
                places.append((current.pk, survivor.favoritePosition))
            }
            for part in merged {
                let id = try writer.insert(try Self.restored(part, db), at: "", now: part.createdAt)
                guard let pk = try ContactReader.pks(ids: [id], db).first else { continue }
                try MergeRecords.restoreTimes(pk: pk, part, db)
                places.append((pk, part.favoritePosition))
            }
            try MergeRecords.place(places, db)
            try Self.restoreLinks(mergeID: mergeID, survivor: current?.pk, db)
            try MergeRecords.delete(id: mergeID, db)
            return UnmergeResult(restored: merged.map(\.contactID), survivor: survivor.contactID,
                                 survivorRestored: restoresSurvivor)
        }
    }

    // MARK: - Non public

    /// The duplicate sets, each with its action; links and `unlink` are
    /// honoured (docs/cli.md, "One person across books: links"): a set never
    /// holds two contacts kept apart (of such a pair the later in the default
    /// order leaves it), and a set whose contacts are one person already is
    /// none.
    static func duplicates(_ db: Database) throws -> [DuplicateSet] {
        let shared = try DuplicateKeys.shared(db)
        let candidates = Set(shared.lazy.flatMap(\.pks))
        let names = try DuplicateKeys.names(of: Array(candidates), db)
        var grouping = DuplicateGrouping()
        for key in shared {
            grouping.add(key.pks, reasons: key.reasons, identifier: key.isIdentifier, names: names)
        }
        let ordered = try DuplicateKeys.inDefaultOrder(grouping.members, db)
        let cards = Dictionary(try LinkRecords.cards(ordered.map(\.pk), db).map { ($0.id, $0) },
                               uniquingKeysWith: { first, _ in first })
        let apart = try LinkRecords.apart(among: ordered.map(\.id), db)
        return grouping.sets(inDefaultOrder: ordered, names: names).compactMap { set in
            var set = set
            var kept: [String] = []
            for id in set.ids where !kept.contains(where: { apart.contains([min($0, id), max($0, id)]) }) {
                kept.append(id)
            }
            set.ids = kept
            let members = kept.compactMap { cards[$0] }
            let persons = Set(members.map { $0.personId.map { ["person", String($0)] } ?? ["contact", $0.id] })
            guard kept.count > 1, persons.count > 1 else { return nil }
            set.action = Set(members.map(\.bookId)).count == members.count ? .link : .merge
            return set
        }
    }

    private struct DryRun: Error { var result: MergeResult }

    /// Puts back the links a merge's contacts had: the survivor's person
    /// now is taken apart, then each contact is linked again to those of
    /// its cards that still exist.
    private static func restoreLinks(mergeID: Int, survivor: Int64?, _ db: Database) throws {
        let links = try LinkRecords.mergeLinks(mergeID: mergeID, db)
        if let survivor { try LinkRecords.dissolve([survivor], db) }
        for (id, linked) in links.sorted(by: { $0.key < $1.key }) {
            let existing = try ContactReader.stored(ids: [id] + linked, db).map(\.pk)
            if existing.count > 1 { try LinkRecords.link(existing, db) }
        }
    }

    /// A contact as the merge record holds it, in the groups it had that
    /// still exist (by their uid: a group renamed since is still its own).
    /// The book a merge's contacts come back to: the one they were merged
    /// in (a merge never spans books), found by the name the record keeps;
    /// else the survivor's book now, when it was renamed; else the default.
    private static func book(of survivor: MergeRecords.Part, now pk: Int64?, _ db: Database) throws -> BookID? {
        let recorded = try? JSONSerialization.jsonObject(with: Data(survivor.contactJSON.utf8)) as? [String: Any]
        if let name = recorded?["book"] as? String, let id = try BookRecords.id(named: name, db) { return id }
        return try pk.flatMap { try BookRecords.ofContacts([$0], db)[$0] }
    }

    private static func restored(_ part: MergeRecords.Part, _ db: Database) throws -> ContactDraft {
        var draft = try ContactJSON.decode(Data(part.contactJSON.utf8), source: "the merge record").draft
        draft.groups = try MergeRecords.groupNames(uids: part.groupUIDs, db)
        var unusual = UnusualValues()
        return try ContactValidator.imported(draft, at: "", counting: &unusual)
    }
    private struct DryRunAll: Error { var results: [MergeResult] }

    /// Merges `ids` into the first, inside a write.
    private static func merge(_ ids: [String], _ db: Database) throws -> MergeResult {
        let stored = try ContactReader.stored(ids: ids, db)
        let found = Set(stored.map(\.contact.id))
        let missing = ids.filter { !found.contains($0) }
        guard missing.isEmpty else { throw ContactsDBError.contactsNotFound(ids: missing) }
        let cards = try LinkRecords.cards(stored.map(\.pk), db)
        if Set(cards.map(\.bookId)).count > 1 {
            let names = try BookRecords.names(db)
            var books: [String] = []
            for card in cards where !books.contains(names[card.bookId] ?? "") { books.append(names[card.bookId] ?? "") }
            throw ContactsDBError.mergeAcrossBooks(ids: ids, books: books)
        }
        // Each contact's links, kept for an unmerge; the survivor is linked
        // to every card any of them was.
        let links = try LinkRecords.cards(ofPersonsOf: stored.map(\.pk), db)
        let contacts = try ContactReader.withChildren(stored, db)
        let parts = try zip(contacts, stored).map { try MergeRecords.part(id: $0.id, json: $0.jsonText, pk: $1.pk, db) }
        let merging = ContactMerging(survivor: contacts[0].draft, others: contacts.dropFirst().map(\.draft))
        let survivorPk = stored[0].pk
        // What another address book holds is kept: checked as imported.
        var unusual = UnusualValues()
        try ContactWriter(db).replaceKeepingHistory(
            pk: survivorPk, try ContactValidator.imported(merging.draft, at: "", counting: &unusual),
            createdAt: contacts[0].createdAt, updatedAt: Date(), previous: contacts[0], db)
        // The best place first; the others' deletion closes their gaps.
        let best = parts.compactMap(\.favoritePosition).min()
        try MergeRecords.place([(survivorPk, best)], db)
        let deleted = Set(stored.dropFirst().map(\.pk))
        try ContactWriter.delete(deleted, db)
        let linked = stored.flatMap { links[$0.pk]?.map(\.pk) ?? [] }.filter { !deleted.contains($0) && $0 != survivorPk }
        if !linked.isEmpty { try LinkRecords.link([survivorPk] + linked, db) }
        let mergeID = try MergeRecords.save(parts: parts, intoRevision: try ChangeLog.revision(db),
                                            keptApart: merging.keptApart, at: Date(), db)
        try LinkRecords.saveMergeLinks(Dictionary(stored.map { stored in
            (stored.contact.id, (links[stored.pk] ?? []).map(\.id).filter { $0 != stored.contact.id })
        }, uniquingKeysWith: { first, _ in first }), mergeID: mergeID, db)
        guard let contact = try ContactReader.contacts(ids: [ids[0]], db).first else {
            throw ContactsDBError.databaseFailure(reason: "the merged contact \(ids[0]) was not stored")
        }
        return MergeResult(mergeID: mergeID, contact: contact, merged: Array(ids.dropFirst()), keptApart: merging.keptApart)
    }
}
