import Foundation
import GRDB

/// The one way contacts come in, whatever their format: readers yield
/// drafts one at a time on a second thread, which validates and derives
/// them, while the calling thread writes them, so that parsing and SQLite
/// share the import's time instead of adding up. Large imports defer the
/// secondary indexes (``DeferredIndexes``) the same way for every format.
///
/// Contacts arrive in input order, in batches through a bounded buffer, so
/// memory stays flat whatever the inputs' size. The first failure in input
/// order wins as it would on one thread: a reading or validation error
/// surfaces after the contacts before it were written, and a writing error
/// stops the reader.
struct ImportPipeline {
    var inputs: [ImportInput]
    /// Skip records that cannot be read, fail validation or repeat a taken
    /// id, and report them, instead of failing the import.
    var skippingInvalid = false
    var progress: ImportProgress?
    /// Deferral starts once this many contacts were written (and at least
    /// as many as the table held).
    var deferringIndexesAfter = DeferredIndexes.minimumContacts

    static let batchSize = 256
    /// Batches read ahead of the writer, at most.
    static let capacity = 8

    /// A record ready to write, or skipped.
    private enum Prepared: Sendable {
        case contact(path: String, bytesRead: Int, draft: ContactDraft, derived: DerivedFields)
        case skipped(String, bytesRead: Int)
    }

    /// Writes every contact of the inputs in the caller's transaction.
    func run(_ db: Database) throws -> ImportReport {
        let total = inputs.reduce(0) { $0 + $1.byteCount }
        let now = Timestamp.string(from: Date())
        let writer = try ContactWriter(db)
        var indexes = try DeferredIndexes(db, minimumContacts: deferringIndexesAfter)
        var report = ImportReport()
        let vCards = VCardCounts()
        let buffer = Buffer()
        let (inputs, skippingInvalid, regions) = (inputs, skippingInvalid, writer.regions)
        let reader = Thread {
            Self.read(inputs, skippingInvalid: skippingInvalid, regions: regions, into: buffer, counting: vCards)
        }
        reader.stackSize = 8 << 20
        reader.start()
        defer {
            buffer.cancel()
            buffer.waitUntilReaderStops()
        }
        while let batch = try buffer.take() {
            for record in batch {
                switch record {
                case let .contact(path, bytesRead, draft, derived):
                    do {
                        _ = try writer.insert(draft, derived, at: path, now: now)
                        report.imported += 1
                        try indexes.didInsert(report.imported, db)
                    } catch let error as ContactsDBError where skippingInvalid {
                        report.skipped.append(error.localizedDescription)
                    }
                    progress?(bytesRead, total)
                case let .skipped(reason, bytesRead):
                    report.skipped.append(reason)
                    progress?(bytesRead, total)
                }
            }
        }
        try indexes.finish(db)
        progress?(total, total)
        buffer.waitUntilReaderStops()
        report.unheldProperties = vCards.reader.unheldProperties
        report.unknownMessengers = vCards.reader.unknownMessengers
        return report
    }

    /// The vCard reader's counts, handed from the reading thread once it stops.
    private final class VCardCounts: @unchecked Sendable {
        var reader = VCardReader()
    }

    private static func read(
        _ inputs: [ImportInput], skippingInvalid: Bool, regions: PhoneRegions, into buffer: Buffer,
        counting vCards: VCardCounts
    ) {
        var batch: [Prepared] = []
        batch.reserveCapacity(batchSize)
        var offset = 0
        func add(_ path: String, _ bytesRead: Int, _ result: Result<ContactDraft, ContactsDBError>) throws {
            if buffer.isWriterGone { throw CancellationError() }
            do {
                let draft = try ContactValidator.validated(try result.get(), at: path)
                batch.append(.contact(path: path, bytesRead: bytesRead, draft: draft, derived: DerivedFields(draft, regions: regions)))
            } catch let error as ContactsDBError where skippingInvalid {
                batch.append(.skipped(error.localizedDescription, bytesRead: bytesRead))
            }
            if batch.count == batchSize {
                guard buffer.put(batch) else { throw CancellationError() }
                batch.removeAll(keepingCapacity: true)
            }
        }
        do {
            for input in inputs {
                try input.withBytes { input in
                    if VCardReader.isVCard(input.bytes) {
                        try vCards.reader.forEachCard(in: input.bytes, source: input.source) { card, end in
                            try add(card.path, offset + end, card.result)
                            input.release?(end)
                        }
                    } else {
                        try ContactJSON.forEachContact(in: input.bytes, source: input.source) { path, end, contact in
                            try add(path, offset + end, .success(contact.draft))
                            input.release?(end)
                        }
                    }
                    offset += input.bytes.count
                }
            }
            if !batch.isEmpty { _ = buffer.put(batch) }
            buffer.finish(throwing: nil)
        } catch {
            if !batch.isEmpty { _ = buffer.put(batch) }
            buffer.finish(throwing: error)
        }
    }

    /// The hand-over between the reading and the writing thread.
    private final class Buffer: @unchecked Sendable {
        private let condition = NSCondition()
        private var batches: [[Prepared]] = []
        private var isFinished = false, isCancelled = false
        private var failure: Error?

        /// Waits for room; false when the writer has stopped.
        func put(_ batch: [Prepared]) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while batches.count >= ImportPipeline.capacity, !isCancelled { condition.wait() }
            guard !isCancelled else { return false }
            batches.append(batch)
            condition.broadcast()
            return true
        }

        func finish(throwing error: Error?) {
            condition.lock()
            defer { condition.unlock() }
            failure = error
            isFinished = true
            condition.broadcast()
        }

        /// The next batch; nil at the end, or the reader's error once the
        /// batches before it are taken.
        func take() throws -> [Prepared]? {
            condition.lock()
            defer { condition.unlock() }
            while batches.isEmpty, !isFinished { condition.wait() }
            if !batches.isEmpty {
                condition.broadcast()
                return batches.removeFirst()
            }
            if let failure { throw failure }
            return nil
        }

        /// True once the writer has stopped taking batches.
        var isWriterGone: Bool {
            condition.lock()
            defer { condition.unlock() }
            return isCancelled
        }

        func cancel() {
            condition.lock()
            defer { condition.unlock() }
            isCancelled = true
            condition.broadcast()
        }

        func waitUntilReaderStops() {
            condition.lock()
            defer { condition.unlock() }
            while !isFinished { condition.wait() }
        }
    }
}
