import Foundation
import GRDB

/// The one way contacts come in, whatever their format: a reading thread
/// turns the inputs into drafts a batch at a time, ``workers`` threads
/// validate and derive the batches, and the calling thread writes them in
/// input order (``BatchPipeline``), so that parsing, deriving and SQLite
/// share the import's time instead of adding up. Large imports defer what
/// is derived from the rows (``DeferredIndexes``) the same way for every
/// format.
///
/// At most ``capacity(workers:)`` batches are between reading and
/// writing, so memory stays flat whatever the inputs' size. The first
/// failure in input order wins as it would on one thread: a reading or
/// validation error surfaces after the contacts before it were written,
/// and a writing error stops the others.
package struct ImportPipeline {
    var inputs: [ImportInput]
    /// The book the contacts go into; nil for the default book.
    var book: BookID?
    /// Skip records that cannot be read, fail validation or repeat a taken
    /// id, and report them, instead of failing the import.
    var skippingInvalid = false
    /// What becomes of a contact whose id the database already holds.
    var existing = ExistingContacts.fail
    var progress: ImportProgress?
    /// Threads that validate and derive.
    var workers = Self.defaultWorkers
    /// Deferral starts once this many contacts were written (and at least
    /// as many as the table held).
    var deferringIndexesAfter = DeferredIndexes.minimumContacts
    /// While deferring, the search indexes catch up every this many contacts.
    var searchCatchUpContacts = DeferredIndexes.searchCatchUpContacts
    /// Deferral starts before the first contact when the inputs' size
    /// says enough are coming (``bytesPerContact``).
    var deferringAtOnce = true

    /// Bytes a contact takes in an address book's export, about: 300 to 500
    /// without a photo, in vCard or JSON (the synthetic sets' 320 and 465).
    /// Inputs of this many bytes per contact of the deferral's threshold
    /// are taken to hold that many; where they hold fewer, larger ones (with
    /// photos), deferring at once costs a rebuild over few rows.
    static let bytesPerContact = 512

    static let batchSize = 256
    /// A batch also ends once its photos hold this many bytes, and the
    /// batches between reading and writing hold at most
    /// ``photoBytesInFlight`` of them (or one batch, whatever its photos'
    /// size: a photo may have 10 MB), so that read-ahead holds a few photos
    /// at a time.
    static let batchPhotoBytes = 4 << 20
    static let photoBytesInFlight = 24 << 20

    /// Batches between reading and writing, at most: every worker has one
    /// while the writer writes one and the reader hands on the next, and
    /// eight more wait, so that the workers go on deriving while the writer
    /// catches the search indexes up (tens of milliseconds, the time they
    /// take to derive a few batches). Memory grows with the workers, by one
    /// batch each: 256 contacts, the photos bounded apart.
    static func capacity(workers: Int) -> Int { workers + 10 }

    /// Every core but one derives (at least one worker); the reader and the
    /// writer, which wait much of the time, share the cores with them, and
    /// the writer derives when it has nothing to write. Counted from the
    /// cores this process may run on (`taskset`).
    package static var defaultWorkers: Int { max(1, ProcessInfo.processInfo.activeProcessorCount - 1) }

    /// A record ready to write, or skipped.
    private enum Prepared: Sendable {
        /// A contact, with its draft where it may replace a stored one.
        case contact(
            ContactWriter.NewContact, bytesRead: Int, unusual: UnusualValues, draft: ContactDraft?,
            identity: DuplicateKeys.Identity?)
        /// A group card, which is a group and never a contact.
        case group(GroupCard, bytesRead: Int)
        case skipped(String, bytesRead: Int)
    }

    /// Writes every contact of the inputs in the caller's transaction.
    func run(_ db: Database) throws -> ImportReport {
        let total = inputs.reduce(0) { $0 + $1.byteCount }
        var writing = try Writing(db, for: self, totalBytes: total)
        let readingSide = ReadingSide()
        let (inputs, skippingInvalid, existing, regions) = (inputs, skippingInvalid, existing, writing.writer.regions)
        let writingStarted = PhaseClock.threadNow()
        if deferringAtOnce { try writing.indexes.expect(total / Self.bytesPerContact, db) }
        let times = try BatchPipeline<[Record], [Result<Prepared, ContactsDBError>]>.run(
            capacity: Self.capacity(workers: workers), maxWeight: Self.photoBytesInFlight, workers: workers,
            read: { pipeline in try Self.read(inputs, into: pipeline, counting: readingSide) },
            prepare: { records in
                readingSide.validateAndDerive.adding {
                    records.map {
                        Self.prepare($0, skippingInvalid: skippingInvalid, existing: existing, regions: regions)
                    }
                }
            },
            write: { batch in try writing.write(batch) })
        return try writing.finish(startedAt: writingStarted, preparing: times.preparing, readingSide: readingSide)
    }

    /// The calling thread's side: writes the prepared batches in input
    /// order and keeps the report.
    private struct Writing {
        let db: Database
        let writer: ContactWriter
        var indexes: DeferredIndexes
        var report = ImportReport()
        let now: String
        let total: Int
        let existing: ExistingContacts
        let skippingInvalid: Bool
        let progress: ImportProgress?
        /// The kind and member lines of the group cards written.
        var groupLines: [String: Int] = [:]
        /// The UID of the first group card of each name (in any case) this
        /// import took in: a later card of that name with another UID is
        /// another group, two clients' cards, kept apart as a sync keeps
        /// them (docs/cli.md, "Favorites and groups").
        var cardUIDs: [String: String] = [:]
        /// A batch's contacts waiting to be written together, and what is
        /// counted of each once it is.
        var contacts: [ContactWriter.NewContact] = []
        var afterwards: [(bytesRead: Int, unusual: UnusualValues, draft: ContactDraft?, identity: DuplicateKeys.Identity?)] = []

        init(_ db: Database, for pipeline: ImportPipeline, totalBytes: Int) throws {
            self.db = db
            total = totalBytes
            existing = pipeline.existing
            skippingInvalid = pipeline.skippingInvalid
            progress = pipeline.progress
            now = Timestamp.string(from: Date())
            let writer = try ContactWriter(db, book: pipeline.book)
            writer.rehomingTakenIDs = true
            self.writer = writer
            indexes = try DeferredIndexes(
                db, minimumContacts: pipeline.deferringIndexesAfter, searchingEvery: pipeline.searchCatchUpContacts,
                sortingThreads: pipeline.workers)
        }

        /// Writes a batch's contacts together, up to a group card, which
        /// may name them, and in their order around it.
        mutating func write(_ batch: [Result<Prepared, ContactsDBError>]) throws {
            for result in batch {
                let record: Prepared
                do {
                    record = try result.get()
                } catch {
                    // The contacts before a failure come before it, as on one thread.
                    try writeContacts()
                    throw error
                }
                switch record {
                case let .contact(contact, bytesRead, unusual, draft, identity):
                    contacts.append(contact)
                    afterwards.append((bytesRead, unusual, draft, identity))
                case let .group(card, bytesRead):
                    try writeContacts()
                    let name = Text.groupKey(card.name)
                    let isAnother = card.uid != nil && cardUIDs[name].map { $0 != card.uid } == true
                    try writer.write(card, matchingName: !isAnother, db)
                    if let uid = card.uid, cardUIDs[name] == nil { cardUIDs[name] = uid }
                    report.groups += 1
                    for name in card.kindAndMemberLines { groupLines[name, default: 0] += 1 }
                    progress?(bytesRead, total)
                case let .skipped(reason, bytesRead):
                    try writeContacts()
                    report.skipped.append(reason)
                    progress?(bytesRead, total)
                }
            }
            try writeContacts()
        }

        /// Writes the contacts waiting, in slices that end where deferral
        /// begins, and before an id the slice holds already, which updates
        /// or skips the contact its first holder wrote.
        private mutating func writeContacts() throws {
            var start = 0
            while start < contacts.count {
                var end = start + min(contacts.count - start, indexes.contactsBeforeDeferring(after: report.imported))
                if existing != .fail { end = ImportPipeline.endOfDistinctIDs(contacts, start..<end) }
                try writeContacts(start..<end)
                try indexes.didInsert(report.imported, db)
                start = end
            }
            contacts.removeAll(keepingCapacity: true)
            afterwards.removeAll(keepingCapacity: true)
        }

        private mutating func writeContacts(_ slice: Range<Int>) throws {
            let adding = existing == .fail ? Array(slice) : try settleExisting(slice)
            let results = try writer.insert(
                adding.count == slice.count ? contacts[slice] : ArraySlice(adding.map { contacts[$0] }), now: now,
                skippingTakenIDs: skippingInvalid)
            for (result, counts) in zip(results, adding.map { afterwards[$0] }) {
                switch result {
                case .success:
                    report.imported += 1
                    report.unusual.add(counts.unusual)
                case .failure(let error):
                    report.skipped.append(error.localizedDescription)
                }
                progress?(counts.bytesRead, total)
            }
        }

        /// Updates or skips the contacts of `slice` that are stored: by
        /// their ids, or for one without, the contact `duplicates` would
        /// call the same person for certain; returns the indices of the
        /// others, to add.
        private mutating func settleExisting(_ slice: Range<Int>) throws -> [Int] {
            let found = try storedContacts(of: slice)
            guard !found.isEmpty else { return Array(slice) }
            var current: [Int64: Contact] = [:]
            if existing == .update {
                // The children are read, and perhaps replaced, through the indexes.
                if indexes.isDeferring { try indexes.stopDeferring(db) }
                let rows = Array(Dictionary(found.values.map { ($0.pk, $0) }, uniquingKeysWith: { first, _ in first }).values)
                for (row, contact) in zip(rows, try ContactReader.withChildren(rows, db)) { current[row.pk] = contact }
            } else {
                for row in found.values { current[row.pk] = row.contact }
            }
            var adding: [Int] = []
            for index in slice {
                guard let row = found[index], let contact = current[row.pk] else {
                    adding.append(index)
                    continue
                }
                if contacts[index].id == nil { report.matchedWithoutID += 1 }
                switch (existing, afterwards[index].draft) {
                case (.update, var draft?):
                    // A record without an id is the card it was found to be.
                    if draft.id == nil { (draft.id, draft.uid) = (contact.id, contact.uid) }
                    guard !ImportPipeline.isHeld(draft, by: contact) else {
                        report.unchanged += 1
                        break
                    }
                    try writer.replaceKeepingHistory(pk: row.pk, draft, createdAt: contact.createdAt, updatedAt: Date(),
                                                     previous: contact, db)
                    report.updated += 1
                    report.unusual.add(afterwards[index].unusual)
                case (.update, _): report.unchanged += 1
                default: report.skippedExisting += 1
                }
                progress?(afterwards[index].bytesRead, total)
            }
            return adding
        }

        /// The stored contact each of `slice` is, by index: a card is here
        /// when its book holds a contact of its UID (another book's contact
        /// of that id is another card); a record without an id, when it is
        /// one of this book's certain duplicates.
        private func storedContacts(of slice: Range<Int>) throws -> [Int: StoredContact] {
            let ids = slice.compactMap { contacts[$0].id }
            let byUID = Dictionary(
                (ids.isEmpty ? [] : try ContactReader.stored(cardUIDs: ids, inBook: writer.book, db)).map { ($0.contact.cardUID, $0) },
                uniquingKeysWith: { first, _ in first })
            var found: [Int: StoredContact] = [:]
            for index in slice { if let id = contacts[index].id, let row = byUID[id] { found[index] = row } }
            let unnamed = slice.filter { contacts[$0].id == nil && afterwards[$0].identity != nil }
            let matches = try DuplicateKeys.certainMatches(of: unnamed.map { afterwards[$0].identity! }, inBook: writer.book, db)
            let matchedIDs = matches.compactMap { $0?.id }
            let byID = Dictionary(
                (matchedIDs.isEmpty ? [] : try ContactReader.stored(ids: matchedIDs, db)).map { ($0.contact.id, $0) },
                uniquingKeysWith: { first, _ in first })
            for (index, match) in zip(unnamed, matches) { if let match, let row = byID[match.id] { found[index] = row } }
            return found
        }

        /// Builds what deferral left of the indexes and completes the
        /// report with the phases' times and the properties kept.
        ///
        /// - parameter preparing: the seconds this thread spent preparing
        ///   batches since `started`, which are not writing.
        mutating func finish(startedAt started: Double, preparing: Double, readingSide: ReadingSide) throws
            -> ImportReport
        {
            report.phases.write = PhaseClock.threadNow() - started - preparing - indexes.searchSecondsWhileWriting
            (report.phases.indexBuild, report.phases.searchIndex) = try indexes.finish(db)
            report.phases.searchIndex += indexes.searchSecondsWhileWriting
            progress?(total, total)
            // A group card's kind and members were read as its group, not kept.
            report.extraProperties = readingSide.vCards.extraProperties.merging(groupLines, uniquingKeysWith: -)
                .merging(readingSide.csv.keptColumns, uniquingKeysWith: +).filter { $0.value > 0 }
            report.phases.parse = readingSide.parse
            report.phases.validateAndDerive = readingSide.validateAndDerive.value
            return report
        }
    }

    /// The vCard reader's counts and the reading side's times, handed from
    /// the reading thread once it stops; the seconds spent deriving are
    /// summed over every thread that derived.
    private final class ReadingSide: @unchecked Sendable {
        var vCards = VCardReader()
        var csv = ContactCSV()
        var parse = 0.0
        let validateAndDerive = SharedSeconds()
    }

    /// A record as a reader yields it, before it is validated and derived.
    private typealias Record = (path: String, bytesRead: Int, result: Result<ContactDraft, ContactsDBError>)

    private static func read(
        _ inputs: [ImportInput], into pipeline: BatchPipeline<[Record], [Result<Prepared, ContactsDBError>]>,
        counting side: ReadingSide
    ) throws {
        let started = PhaseClock.threadNow()
        var records: [Record] = []
        records.reserveCapacity(batchSize)
        var photoBytes = 0
        var offset = 0
        func flush() throws {
            guard !records.isEmpty else { return }
            let batch = records
            records.removeAll(keepingCapacity: true)
            defer { photoBytes = 0 }
            guard pipeline.put(batch, weight: photoBytes) else { throw CancellationError() }
        }
        func add(_ path: String, _ bytesRead: Int, _ result: Result<ContactDraft, ContactsDBError>) throws {
            records.append((path, bytesRead, result))
            if case .success(let draft) = result { photoBytes += draft.photo?.data.count ?? 0 }
            if records.count == batchSize || photoBytes >= batchPhotoBytes { try flush() }
        }
        func readOne(_ input: ContactsInput) throws {
            try forEachRecord(in: input, side: side) { path, end, result in try add(path, offset + end, result) }
        }
        do {
            for input in inputs {
                try input.withBytes { input in
                    // A UTF-16 or UTF-32 file is read as UTF-8, whole.
                    if let utf8 = UnicodeTranscoding.utf8(input.bytes) {
                        try ImportInput.data(utf8, source: input.source).withBytes { transcoded in
                            try readOne(transcoded)
                        }
                    } else {
                        try readOne(input)
                    }
                    offset += input.bytes.count
                }
            }
            try flush()
            side.parse = PhaseClock.threadNow() - started
        } catch is CancellationError {
            return  // The writer stopped.
        } catch {
            // Records read before a reading error come before it.
            try flush()
            throw error
        }
    }

    /// Calls `body` with each record of one input (its path, the offset of
    /// its end, and it) as the reader its bytes call for reads them, and
    /// lets go of the bytes read.
    private static func forEachRecord(
        in input: ContactsInput, side: ReadingSide,
        _ body: (String, Int, Result<ContactDraft, ContactsDBError>) throws -> Void
    ) throws {
        if CSVRecords.isCSV(input.bytes) {
            try side.csv.forEachContact(in: input.bytes, source: input.source) { path, end, result in
                try body(path, end, result)
                input.release?(end)
            }
        } else if VCardReader.isVCard(input.bytes) {
            try side.vCards.forEachCard(in: input.bytes, source: input.source) { card, end in
                try body(card.path, end, card.result)
                input.release?(end)
            }
        } else {
            try ContactJSON.forEachContact(in: input.bytes, source: input.source) { path, end, contact in
                try body(path, end, .success(contact.draft))
                input.release?(end)
            }
        }
    }

    /// A record validated and derived, or skipped, or its failure.
    ///
    /// - parameter existing: what becomes of a contact stored already:
    ///   unless `fail`, a contact without an id keeps what it is known by
    ///   among those, and with `update` the validated draft, which may
    ///   replace one.
    private static func prepare(
        _ record: Record, skippingInvalid: Bool, existing: ExistingContacts, regions: PhoneRegions
    ) -> Result<Prepared, ContactsDBError> {
        do {
            let parsed = try record.result.get()
            if let group = GroupCard(parsed) {
                return .success(.group(try checked(group, at: record.path), bytesRead: record.bytesRead))
            }
            let (draft, derived, unusual) = try validatedAndDerived(parsed, at: record.path, regions: regions)
            return .success(.contact(
                ContactWriter.NewContact(draft: draft, derived: derived, path: record.path), bytesRead: record.bytesRead,
                unusual: unusual, draft: existing == .update ? draft : nil,
                identity: existing != .fail && draft.id == nil ? DuplicateKeys.Identity(draft, derived) : nil))
        } catch let error as ContactsDBError {
            return skippingInvalid ? .success(.skipped(error.localizedDescription, bytesRead: record.bytesRead)) : .failure(error)
        } catch {
            return .failure(.invalidContact(field: record.path, reason: "\(error)"))
        }
    }

    /// Whether `contact` is already what `card` says: every field equal,
    /// a card's FN that spells the display name the contact derives
    /// counting as none (the writer writes that FN for a contact without
    /// one, so an export imported again is no change).
    private static func isHeld(_ card: ContactDraft, by contact: Contact) -> Bool {
        let stored = contact.draft
        var card = card
        if stored.formattedName == nil, card.formattedName == contact.displayName { card.formattedName = nil }
        return ContactField.holdSame(stored, card)
    }

    /// The end of the longest run of `range` whose ids are distinct.
    private static func endOfDistinctIDs(_ contacts: [ContactWriter.NewContact], _ range: Range<Int>) -> Int {
        var seen: Set<String> = []
        for index in range {
            if let id = contacts[index].id, !seen.insert(id).inserted { return index }
        }
        return range.upperBound
    }

    /// What every contact coming in goes through, read from a file or
    /// pulled by a sync: the rules for imported data, then the derived
    /// fields.
    package static func validatedAndDerived(_ parsed: ContactDraft, at path: String, regions: PhoneRegions) throws
        -> (draft: ContactDraft, derived: DerivedFields, unusual: UnusualValues)
    {
        var unusual = UnusualValues()
        let draft = try ContactValidator.imported(parsed, at: path, counting: &unusual)
        let derived = DerivedFields(draft, regions: regions)
        if draft.photo != nil, derived.photo == nil { unusual.undecodablePhotos += 1 }
        return (draft, derived, unusual)
    }

    /// A group card as a group can hold it: its name tidied and within
    /// a group name's length, else refused as a contact would be.
    package static func checked(_ group: GroupCard, at path: String) throws -> GroupCard {
        var group = group
        group.name = try ContactValidator.groupName(group.name, at: path.isEmpty ? "FN" : path + ".FN")
        return group
    }
}
