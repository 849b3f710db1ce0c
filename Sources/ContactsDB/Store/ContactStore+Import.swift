import Foundation

extension ContactStore {
    // MARK: - Importing

    /// Adds every contact of a JSON file (SPEC's format), all or nothing, in
    /// one transaction. Not recorded as a seed: importing twice adds twice
    /// (and fails on ids given twice).
    ///
    /// - returns: how many contacts were added.
    /// - throws: `.malformedJSON` with line and column, `.invalidContact`
    ///   naming the record and field (`contacts[3].phones[0].value`), or
    ///   `.duplicateContactID`; nothing is written.
    @discardableResult
    public func importContacts(_ data: Data, source: String, progress: ImportProgress? = nil) throws -> Int {
        try ContactsInput.with(data, source: source) { input in
            try write { db in try SeedImporter.insertAll(input, progress: progress, db) }
        }
    }

    /// ``importContacts(_:source:progress:)`` from a file, read through a
    /// memory map whose pages are released as the import moves on, so that
    /// a file of any size imports in bounded memory.
    @discardableResult
    public func importContacts(fromFileAt path: String, progress: ImportProgress? = nil) throws -> Int {
        let file = try MappedFile(path: path)
        return try write { db in try SeedImporter.insertAll(ContactsInput(file, path: path), progress: progress, db) }
    }

    // MARK: - Seeding

    /// Imports a seed once per database: a second call with the same bytes
    /// reports the first import and writes nothing.
    public func seed(_ data: Data, source: String, progress: ImportProgress? = nil) throws -> SeedOutcome {
        try ContactsInput.with(data, source: source) { input in
            try write { db in try SeedImporter.seed(input, progress: progress, db) }
        }
    }

    /// ``seed(_:source:progress:)`` from a file, in bounded memory.
    public func seed(fromFileAt path: String, progress: ImportProgress? = nil) throws -> SeedOutcome {
        let file = try MappedFile(path: path)
        return try write { db in try SeedImporter.seed(ContactsInput(file, path: path), progress: progress, db) }
    }

    /// Records that this database declines the bundled seed: no open will
    /// import it, though ``seed(_:source:progress:)`` still can.
    public func declineBundledSeed() throws {
        try write { db in
            try Settings.set(Settings.bundledSeedDeclinedKey, to: Timestamp.string(from: Date()), db)
        }
    }

    /// Every seed imported into this database, oldest first.
    public func seedImports() throws -> [SeedImport] {
        try read { db in try SeedRecords.all(db) }
    }

    /// When the bundled seed was declined, if it was.
    public func bundledSeedDeclinedAt() throws -> Date? {
        try read { db in
            try Settings.value(Settings.bundledSeedDeclinedKey, db).flatMap(Timestamp.date(from:))
        }
    }
}

extension ContactStore {
    /// Imports the cards of vCard files (2.1, 3.0 or 4.0; one or many cards
    /// each), in one transaction.
    ///
    /// - parameter skippingInvalid: skip a card that cannot be read (or
    ///   whose id is taken) and report it; otherwise such a card fails the
    ///   whole import, which then writes nothing.
    public func importVCards(_ files: [(source: String, data: Data)], skippingInvalid: Bool = false) throws -> VCardImport {
        var reader = VCardReader()
        var report = VCardImport()
        var cards: [VCardReader.Card] = []
        for file in files {
            cards += reader.cards(in: file.data, source: file.source, firstPosition: cards.count)
        }
        report.unheldProperties = reader.unheldProperties
        report.unknownMessengers = reader.unknownMessengers
        try write { db in
            let writer = try ContactWriter(db)
            let now = Timestamp.string(from: Date())
            for card in cards {
                do {
                    let draft = try card.result.get()
                    _ = try writer.insert(draft, at: "card \(card.position + 1) (line \(card.line))", now: now)
                    report.imported += 1
                } catch let error as ContactsDBError where skippingInvalid {
                    report.skippedCards.append(error.localizedDescription)
                }
            }
        }
        return report
    }
}
