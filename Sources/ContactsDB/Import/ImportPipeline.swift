import Foundation
import GRDB

/// The one way contacts come in, whatever their format: readers yield
/// drafts one at a time on a second thread, which validates and derives
/// them a batch at a time (on two threads), while the calling thread
/// writes them, so that parsing and SQLite
/// share the import's time instead of adding up. Large imports defer the
/// secondary indexes (``DeferredIndexes``) the same way for every format.
///
/// Contacts arrive in input order, in batches through a bounded buffer, so
/// memory stays flat whatever the inputs' size. The first failure in input
/// order wins as it would on one thread: a reading or validation error
/// surfaces after the contacts before it were written, and a writing error
/// stops the reader.
package struct ImportPipeline {
    var inputs: [ImportInput]
    /// Skip records that cannot be read, fail validation or repeat a taken
    /// id, and report them, instead of failing the import.
    var skippingInvalid = false
    var progress: ImportProgress?
    /// Deferral starts once this many contacts were written (and at least
    /// as many as the table held).
    var deferringIndexesAfter = DeferredIndexes.minimumContacts

    static let batchSize = 256
    /// A batch also ends once its photos hold this many bytes, so that the
    /// batches read ahead hold at most a few of them whatever their size
    /// (a photo may have 10 MB).
    static let batchPhotoBytes = 8 << 20
    /// Batches read ahead of the writer, at most.
    static let capacity = 8
    /// Threads that validate and derive contacts coming in, by import or
    /// by sync: the one setting of how many.
    package static let workers = 2

    /// A record ready to write, or skipped.
    private enum Prepared: Sendable {
        case contact(path: String, bytesRead: Int, draft: ContactDraft, derived: DerivedFields, unusual: UnusualValues)
        /// A group card, which is a group and never a contact.
        case group(GroupCard, bytesRead: Int)
        case skipped(String, bytesRead: Int)
    }

    /// Writes every contact of the inputs in the caller's transaction.
    func run(_ db: Database) throws -> ImportReport {
        let total = inputs.reduce(0) { $0 + $1.byteCount }
        let now = Timestamp.string(from: Date())
        let writer = try ContactWriter(db)
        var indexes = try DeferredIndexes(db, minimumContacts: deferringIndexesAfter)
        var report = ImportReport()
        let readingSide = ReadingSide()
        let (inputs, skippingInvalid, regions) = (inputs, skippingInvalid, writer.regions)
        let writingStarted = PhaseClock.now()
        var groupLines: [String: Int] = [:]
        let waitingForReader = try BatchBuffer<[Prepared]>.run(capacity: Self.capacity, read: { buffer in
            try Self.read(inputs, skippingInvalid: skippingInvalid, regions: regions, into: buffer, counting: readingSide)
        }, write: { batch in
            for record in batch {
                switch record {
                case let .contact(path, bytesRead, draft, derived, unusual):
                    do {
                        _ = try writer.insert(draft, derived, at: path, now: now)
                        report.imported += 1
                        report.unusual.add(unusual)
                        try indexes.didInsert(report.imported, db)
                    } catch let error as ContactsDBError where skippingInvalid {
                        report.skipped.append(error.localizedDescription)
                    }
                    progress?(bytesRead, total)
                case let .group(card, bytesRead):
                    try writer.write(card, db)
                    report.groups += 1
                    for name in card.kindAndMemberLines { groupLines[name, default: 0] += 1 }
                    progress?(bytesRead, total)
                case let .skipped(reason, bytesRead):
                    report.skipped.append(reason)
                    progress?(bytesRead, total)
                }
            }
        })
        report.phases.write = PhaseClock.now() - writingStarted - waitingForReader
        (report.phases.indexBuild, report.phases.searchIndex) = try indexes.finish(db)
        progress?(total, total)
        // A group card's kind and members were read as its group, not kept.
        report.extraProperties = readingSide.vCards.extraProperties.merging(groupLines, uniquingKeysWith: -)
            .filter { $0.value > 0 }
        report.phases.parse = readingSide.parse
        report.phases.validateAndDerive = readingSide.validateAndDerive
        return report
    }

    /// The vCard reader's counts and the reading side's times, handed from
    /// the reading thread once it stops.
    private final class ReadingSide: @unchecked Sendable {
        var vCards = VCardReader()
        var parse = 0.0, validateAndDerive = 0.0
    }

    /// A record as a reader yields it, before it is validated and derived.
    private typealias Record = (path: String, bytesRead: Int, result: Result<ContactDraft, ContactsDBError>)

    private static func read(
        _ inputs: [ImportInput], skippingInvalid: Bool, regions: PhoneRegions, into buffer: BatchBuffer<[Prepared]>,
        counting side: ReadingSide
    ) throws {
        let started = PhaseClock.now()
        var waitingForWriter = 0.0
        var records: [Record] = []
        records.reserveCapacity(batchSize)
        var photoBytes = 0
        var offset = 0
        // Hands the records read so far over as one batch, validated and
        // derived; the first that fails, in input order, stops the reading
        // after the ones before it.
        func flush() throws {
            var batch: [Prepared] = []
            batch.reserveCapacity(records.count)
            let prepared = PhaseClock.adding(to: &side.validateAndDerive) {
                prepare(records, skippingInvalid: skippingInvalid, regions: regions)
            }
            records.removeAll(keepingCapacity: true)
            photoBytes = 0
            for result in prepared {
                switch result {
                case .success(let record): batch.append(record)
                case .failure(let error):
                    if !batch.isEmpty { _ = PhaseClock.adding(to: &waitingForWriter) { buffer.put(batch) } }
                    throw error
                }
            }
            guard batch.isEmpty || PhaseClock.adding(to: &waitingForWriter, { buffer.put(batch) }) else {
                throw CancellationError()
            }
        }
        func add(_ path: String, _ bytesRead: Int, _ result: Result<ContactDraft, ContactsDBError>) throws {
            if buffer.isWriterGone { throw CancellationError() }
            records.append((path, bytesRead, result))
            if case .success(let draft) = result { photoBytes += draft.photo?.data.count ?? 0 }
            if records.count == batchSize || photoBytes >= batchPhotoBytes { try flush() }
        }
        func readOne(_ input: ContactsInput) throws {
            if VCardReader.isVCard(input.bytes) {
                try side.vCards.forEachCard(in: input.bytes, source: input.source) { card, end in
                    try add(card.path, offset + end, card.result)
                    input.release?(end)
                }
            } else {
                try ContactJSON.forEachContact(in: input.bytes, source: input.source) { path, end, contact in
                    try add(path, offset + end, .success(contact.draft))
                    input.release?(end)
                }
            }
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
            side.parse = PhaseClock.now() - started - side.validateAndDerive - waitingForWriter
        } catch is CancellationError {
            return  // The writer stopped.
        } catch {
            // Records read before a reading error come before it; a failure
            // among them is the earlier one, and wins.
            try flush()
            throw error
        }
    }

    /// Validates and derives `records` in their order (``preparedInOrder(_:_:)``).
    private static func prepare(
        _ records: [Record], skippingInvalid: Bool, regions: PhoneRegions
    ) -> [Result<Prepared, ContactsDBError>] {
        preparedInOrder(records) { record in
            do {
                let parsed = try record.result.get()
                if let group = GroupCard(parsed) {
                    return .success(.group(try checked(group, at: record.path), bytesRead: record.bytesRead))
                }
                let (draft, derived, unusual) = try validatedAndDerived(parsed, at: record.path, regions: regions)
                return .success(.contact(
                    path: record.path, bytesRead: record.bytesRead, draft: draft, derived: derived, unusual: unusual))
            } catch let error as ContactsDBError {
                return skippingInvalid ? .success(.skipped(error.localizedDescription, bytesRead: record.bytesRead)) : .failure(error)
            } catch {
                return .failure(.invalidContact(field: record.path, reason: "\(error)"))
            }
        }
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

    /// `prepare` applied to each item on ``workers`` threads (ICU, the fold
    /// and libphonenumber are safe to share), the results in the items'
    /// order.
    package static func preparedInOrder<Item: Sendable, Prepared: Sendable>(
        _ items: [Item], _ prepare: @Sendable (Item) -> Prepared
    ) -> [Prepared] {
        // Each result is made in its place: no placeholder, no second copy.
        Array(unsafeUninitializedCapacity: items.count) { buffer, count in
            nonisolated(unsafe) let results = buffer
            DispatchQueue.concurrentPerform(iterations: workers) { part in
                for index in stride(from: part, to: items.count, by: workers) {
                    (results.baseAddress! + index).initialize(to: prepare(items[index]))
                }
            }
            count = items.count
        }
    }
}
