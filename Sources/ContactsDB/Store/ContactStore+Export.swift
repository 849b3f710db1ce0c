import Foundation

extension ContactStore {
    /// Calls `body` with every contact in the default order, read 500 at a
    /// time so that memory stays bounded however many there are; an error
    /// `body` throws stops the reading.
    ///
    /// - parameter books: only the contacts of these books; nil for all.
    public func forEachContact(inBooks books: [String]? = nil, _ body: (Contact) throws -> Void) throws {
        try forEachContact(of: ids(matching: Self.query(inBooks: books)), body)
    }

    private func forEachContact(of ids: [String], _ body: (Contact) throws -> Void) throws {
        for start in stride(from: 0, to: ids.count, by: 500) {
            for contact in try contacts(ids: Array(ids[start..<min(start + 500, ids.count)])) {
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
    /// - parameter groups: how the groups are written: as each member's
    ///   CATEGORIES, or as group cards of their own (named by their uid).
    /// - parameter books: only the contacts and groups of these books; nil
    ///   for all.
    /// - throws: `.unwritableFile` naming the directory or the card.
    public func exportCards(to directory: String, version: VCardVersion, groups: GroupConvention = .categories,
                            inBooks books: [String]? = nil) throws {
        let ids = try ids(matching: Self.query(inBooks: books))
        let groupCards = groups == .cards ? try allGroupCards(inBooks: books) : []
        let cards = try CardDirectory(path: directory, names: ids + groupCards.map { $0.uid ?? "" })
        try forEachContact(of: ids) { try cards.write($0.vCard(version: version, categories: groups == .categories), named: $0.id) }
        for card in groupCards { try cards.write(card.vCard(version: version), named: card.uid ?? "") }
        AtomicFile.syncFileSystems()
    }

    /// Every group as a group card in `version`'s form (SPEC §Groups as
    /// address books hold them), to follow the contacts in an export.
    ///
    /// - parameter books: only the groups of these books; nil for all.
    public func groupCards(version: VCardVersion, inBooks books: [String]? = nil) throws -> [String] {
        try allGroupCards(inBooks: books).map { $0.vCard(version: version) }
    }

    private func allGroupCards(inBooks books: [String]?) throws -> [GroupCard] {
        try read { db in
            let ids = try books.map { try $0.map { try BookRecords.existingID(named: $0, db) } }
                ?? BookRecords.all(db).map { try BookRecords.existingID(named: $0.name, db) }
            return try ids.flatMap { try GroupWriter.cards(book: $0, db) }
        }
    }

    /// Every contact, or those of `books`.
    static func query(inBooks books: [String]?) -> ContactQuery {
        books.map { ContactQuery().filter(.books($0)) } ?? ContactQuery()
    }
}
