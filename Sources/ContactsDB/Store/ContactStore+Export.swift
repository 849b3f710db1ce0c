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
    /// - throws: `.unwritableFile` naming the directory or the card.
    public func exportCards(to directory: String, version: VCardVersion) throws {
        let ids = try ids(matching: ContactQuery())
        let cards = try CardDirectory(path: directory, names: ids)
        try forEachContact(of: ids) { try cards.write($0.vCard(version: version), named: $0.id) }
        AtomicFile.syncFileSystems()
    }
}
