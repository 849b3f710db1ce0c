import Foundation

extension ContactStore {
    /// Calls `body` with every contact in the default order, read 500 at a
    /// time so that memory stays bounded however many there are; an error
    /// `body` throws stops the reading.
    public func forEachContact(_ body: (Contact) throws -> Void) throws {
        try forEachContact(of: ids(matching: ContactQuery()), body)
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
    /// - throws: `.unwritableFile` naming the directory or the card.
    public func exportCards(to directory: String, version: VCardVersion, groups: GroupConvention = .categories) throws {
        let ids = try ids(matching: ContactQuery())
        let groupCards = groups == .cards ? try read(GroupWriter.cards) : []
        let cards = try CardDirectory(path: directory, names: ids + groupCards.map { $0.uid ?? "" })
        try forEachContact(of: ids) { try cards.write($0.vCard(version: version, categories: groups == .categories), named: $0.id) }
        for card in groupCards { try cards.write(card.vCard(version: version), named: card.uid ?? "") }
        AtomicFile.syncFileSystems()
    }

    /// Every group as a group card in `version`'s form (SPEC §Groups as
    /// address books hold them), to follow the contacts in an export.
    public func groupCards(version: VCardVersion) throws -> [String] {
        try read(GroupWriter.cards).map { $0.vCard(version: version) }
    }
}
