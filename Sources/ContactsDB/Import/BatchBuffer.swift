import Foundation

/// The hand-over between a reading thread and a writing one, for the
/// import pipeline and a sync's pull alike: at most `capacity` batches
/// wait, so memory stays bounded; the reader's error reaches the writer
/// after the batches before it; a writer that stops stops the reader.
package final class BatchBuffer<Batch: Sendable>: @unchecked Sendable {
    private let capacity: Int
    private let condition = NSCondition()
    private var batches: [Batch] = []
    private var isFinished = false, isCancelled = false
    private var failure: Error?

    private init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits for room; false when the writer has stopped.
    package func put(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= capacity, !isCancelled { condition.wait() }
        guard !isCancelled else { return false }
        batches.append(batch)
        condition.broadcast()
        return true
    }

    private func finish(throwing error: Error?) {
        condition.lock()
        defer { condition.unlock() }
        failure = error
        isFinished = true
        condition.broadcast()
    }

    /// The next batch; nil at the end, or the reader's error once the
    /// batches before it are taken.
    private func take() throws -> Batch? {
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
    package var isWriterGone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isCancelled
    }

    private func cancel() {
        condition.lock()
        defer { condition.unlock() }
        isCancelled = true
        condition.broadcast()
    }

    private func waitUntilReaderStops() {
        condition.lock()
        defer { condition.unlock() }
        while !isFinished { condition.wait() }
    }

    /// Runs `read` on a thread of its own, handing its batches to `write`
    /// on this one, in order; returns once both are done, with the seconds
    /// `write`'s side waited for batches. `read` puts each batch (false:
    /// the writer stopped, so stop reading) and throws to end the reading
    /// with an error, which `write`'s caller gets after the batches before
    /// it.
    @discardableResult
    package static func run(capacity: Int, read: @escaping @Sendable (BatchBuffer) throws -> Void,
                            write: (Batch) throws -> Void) throws -> Double {
        let buffer = BatchBuffer(capacity: capacity)
        let reader = Thread {
            do {
                try read(buffer)
                buffer.finish(throwing: nil)
            } catch {
                buffer.finish(throwing: error)
            }
        }
        reader.stackSize = 8 << 20
        reader.start()
        defer {
            buffer.cancel()
            buffer.waitUntilReaderStops()
        }
        var waiting = 0.0
        while let batch = try PhaseClock.adding(to: &waiting, buffer.take) { try write(batch) }
        return waiting
    }
}
