import Foundation

extension ContactStore {
    // MARK: - Importing

    /// Adds every contact of the inputs — JSON (docs/cli.md, "First run and
    /// seeding") or vCard 2.1, 3.0 and 4.0, told apart by content — all or
    /// nothing, in one transaction, through the one import pipeline. Not
    /// recorded as a seed: importing twice adds twice, or fails on ids given
    /// twice unless `existing` says what becomes of them.
    ///
    /// - parameter inputs: the files or bytes to read, in order.
    /// - parameter book: the address book they go into; nil for the
    ///   default book. A card whose UID is another book's contact's id is a
    ///   contact of its own (``ContactDraft/uid``); `existing` concerns the
    ///   contacts of this book only.
    /// - parameter progress: called with the bytes read and the total,
    ///   while the import's transaction is open: it must not use this store.
    /// - parameter skippingInvalid: skip a record that cannot be read,
    ///   breaks a rule or repeats a taken id, and report it; otherwise such
    ///   a record fails the whole import, which then writes nothing. Broken
    ///   JSON syntax always fails it.
    /// - parameter existing: what becomes of a contact whose id is stored
    ///   already (or was given to an earlier record of the inputs).
    /// - throws: `.malformedJSON` with line and column, `.invalidContact`
    ///   naming the record and field (`contacts[3].phones[0].value`,
    ///   `cards.vcf card 2 (line 9)`), `.contactExists` for the first
    ///   taken id when `existing` is `.fail`, or `.unreadableFile`;
    ///   nothing is written.
    @discardableResult
    public func importContacts(
        from inputs: [ImportInput], intoBook book: String? = nil, skippingInvalid: Bool = false,
        existing: ExistingContacts = .fail, progress: ImportProgress? = nil
    ) throws -> ImportReport {
        var pipelineEnded = 0.0
        // Each child row follows the contact whose key it takes; a contact
        // replaced has its children deleted by the writer, not by a cascade.
        var report: ImportReport
        do {
            report = try writeAdding { db in
                defer { pipelineEnded = PhaseClock.now() }
                try ChangeLog.record(.import(file: inputs.map(\.source).joined(separator: ", ")), db)
                return try ImportPipeline(
                    inputs: inputs, book: try BookRecords.existingID(named: book, db), skippingInvalid: skippingInvalid,
                    existing: existing, progress: progress, workers: workers
                ).run(db)
            }
        } catch let ContactsDBError.duplicateContactID(field, id) {
            throw ContactsDBError.contactExists(field: field, id: id)
        }
        report.phases.commit = PhaseClock.now() - pipelineEnded
        return report
    }

    /// Adds every contact of `data`, all or nothing; returns how many.
    @discardableResult
    public func importContacts(_ data: Data, source: String, progress: ImportProgress? = nil) throws -> Int {
        try importContacts(from: [.data(data, source: source)], progress: progress).imported
    }

    /// Adds every contact of a file, read through a memory map whose pages
    /// are released as the import moves on, so that a file of any size
    /// imports in bounded memory; returns how many.
    @discardableResult
    public func importContacts(fromFileAt path: String, progress: ImportProgress? = nil) throws -> Int {
        try importContacts(from: [.file(path: path)], progress: progress).imported
    }

    // MARK: - Seeding

    /// Imports a seed once per database: a second call with the same bytes
    /// reports the first import and writes nothing.
    ///
    /// - parameter data: the seed's JSON, in the export format.
    /// - parameter source: where it came from, as ``SeedImport/source``
    ///   records it.
    /// - parameter book: the address book it goes into; nil for the
    ///   default book.
    /// - parameter progress: called with the bytes read and the total.
    public func seed(_ data: Data, source: String, intoBook book: String? = nil, progress: ImportProgress? = nil) throws
        -> SeedOutcome
    {
        try write { db in
            try SeedImporter.seed(.data(data, source: source), book: try BookRecords.existingID(named: book, db), progress: progress, db)
        }
    }

    /// ``seed(_:source:intoBook:progress:)`` from a file, in bounded memory.
    public func seed(fromFileAt path: String, intoBook book: String? = nil, progress: ImportProgress? = nil) throws
        -> SeedOutcome
    {
        try write { db in
            try SeedImporter.seed(.file(path: path), book: try BookRecords.existingID(named: book, db), progress: progress, db)
        }
    }

    /// Records that this database declines the bundled seed: no open will
    /// import it, though ``seed(_:source:intoBook:progress:)`` still can.
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
