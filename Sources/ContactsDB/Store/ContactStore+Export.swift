import Foundation

extension ContactStore {
    /// Calls `body` with every contact that matches `query`, in its order,
    /// read 500 at a time so that memory stays bounded however many there
    /// are; an error `body` throws stops the reading.
    ///
    /// - parameter query: the filters and sort; its page is ignored.
    /// - parameter only: when given, only the contacts of these ids (and
    ///   matching `query`).
    /// - parameter body: called with each contact, with all its children.
    /// - throws: `.contactsNotFound` naming the ids of `only` that no
    ///   contact has, before anything is read.
    public func forEachContact(
        matching query: ContactQuery = ContactQuery(), only: [String]? = nil, _ body: (Contact) throws -> Void
    ) throws {
        try forEachContact(of: selection(query, only: only), body)
    }

    /// The ids of the contacts that match `query` and, when given, have
    /// one of the ids `only`.
    private func selection(_ query: ContactQuery, only: [String]?) throws -> [String] {
        let ids = try ids(matching: query)
        guard let only else { return ids }
        _ = try read { db in try ContactReader.pks(ids: only, db) }  // Every id is known.
        let chosen = Set(only)
        return ids.filter(chosen.contains)
    }

    private func forEachContact(of ids: [String], _ body: (Contact) throws -> Void) throws {
        for batch in ids.chunked(into: 500) {
            for contact in try contacts(ids: Array(batch)) {
                try body(contact)
            }
        }
    }

    /// Writes every contact as one `.vcf` file in `directory`, named by
    /// ``CardFileName``, as khard and vdirsyncer keep address books. Each
    /// card is written whole and replaces an earlier card of its name; a
    /// link or special file at a card's name is refused before any card is
    /// written.
    ///
    /// - parameter directory: where the cards go; created if missing.
    /// - parameter version: vCard 3.0 or 4.0.
    /// - parameter groups: how the groups are written: as each member's
    ///   CATEGORIES, or as group cards of their own (named by their uid).
    /// - parameter query: the contacts written, as
    ///   ``forEachContact(matching:only:_:)`` chooses them.
    /// - parameter only: when given, only the contacts of these ids.
    /// - throws: `.unwritableFile` naming the directory or the card.
    public func exportCards(
        to directory: String, version: VCardVersion, groups: GroupConvention = .categories,
        matching query: ContactQuery = ContactQuery(), only: [String]? = nil
    ) throws {
        let ids = try selection(query, only: only)
        let groupCards = groups == .cards ? try allGroupCards(inBooks: query.bookNames) : []
        let cards = try CardDirectory(path: directory, names: ids + groupCards.map { $0.uid ?? "" })
        try forEachContact(of: ids) { try cards.write($0.vCard(version: version, categories: groups == .categories), named: $0.id) }
        for card in groupCards { try cards.write(card.vCard(version: version), named: card.uid ?? "") }
        AtomicFile.syncFileSystems()
    }

    /// Every group as a group card in `version`'s form (docs/cli.md, "Favorites
    /// and groups"), to follow the contacts in an export.
    ///
    /// - parameter version: vCard 3.0 or 4.0.
    /// - parameter books: only the groups of these books; nil for all.
    public func groupCards(version: VCardVersion, inBooks books: [String]? = nil) throws -> [String] {
        try allGroupCards(inBooks: books).map { $0.vCard(version: version) }
    }

    private func allGroupCards(inBooks books: [String]?) throws -> [GroupCard] {
        try read { db in
            guard let books else { return try GroupWriter.cards(book: nil, db) }
            return try books.flatMap { try GroupWriter.cards(book: BookRecords.existingID(named: $0, db), db) }
        }
    }
}
