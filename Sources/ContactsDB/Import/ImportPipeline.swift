import Foundation

/// Reads, validates and derives the contacts of a file on a second thread
/// while the calling thread writes them, so that parsing and SQLite share
/// the import's time instead of adding up.
///
/// Contacts arrive in file order, in batches through a bounded buffer, so
/// memory stays flat whatever the file's size. The first failure in file
/// order wins as it would on one thread: a reading or validation error
/// surfaces after the contacts before it were handed over, and a writing
/// error stops the reader.
enum ImportPipeline {
    /// A contact ready to write.
    struct Prepared: Sendable {
        var path: String
        /// How far into the input the contact ends.
        var bytesRead: Int
        var draft: ContactDraft
        var derived: DerivedFields
    }

    static let batchSize = 256
    /// Batches read ahead of the writer, at most.
    static let capacity = 8

    /// Calls `write` for each contact of `input`, in order, on the calling
    /// thread; returns once the reader has stopped.
    static func run(_ input: ContactsInput, write: (Prepared) throws -> Void) throws {
        let buffer = Buffer()
        let reader = Thread { read(input, into: buffer) }
        reader.stackSize = 8 << 20
        reader.start()
        defer {
            buffer.cancel()
            buffer.waitUntilReaderStops()
        }
        while let batch = try buffer.take() {
            for contact in batch { try write(contact) }
        }
    }

    private static func read(_ input: ContactsInput, into buffer: Buffer) {
        var batch: [Prepared] = []
        batch.reserveCapacity(batchSize)
        do {
            try ContactJSON.forEachContact(in: input.bytes, source: input.source) { path, bytesRead, contact in
                if buffer.isWriterGone { throw CancellationError() }
                let draft = try ContactValidator.validated(contact.draft, at: path)
                batch.append(Prepared(path: path, bytesRead: bytesRead, draft: draft, derived: DerivedFields(draft)))
                input.release?(bytesRead)
                if batch.count == batchSize {
                    guard buffer.put(batch) else { throw CancellationError() }
                    batch.removeAll(keepingCapacity: true)
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
