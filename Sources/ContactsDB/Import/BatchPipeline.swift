import Foundation

/// The stages every import and every pull share: one thread reads
/// batches in order, `workers` threads prepare them (validate and derive),
/// and the calling thread writes them in the order they were read.
///
/// At most `capacity` batches are between reading and writing, and at most
/// `maxWeight` of what the reader weighs them by (a photo's bytes) unless
/// one batch alone weighs more, so memory stays bounded whatever the
/// input's size. When the next batch is not ready, the writer prepares a
/// waiting one itself rather than wait for a worker to start it, so on a
/// machine whose cores are all busy the work still flows. The reader's
/// error reaches the writer after the batches read before it; a writer
/// that stops stops the reader and the workers.
package final class BatchPipeline<Raw: Sendable, Prepared: Sendable>: @unchecked Sendable {
    private let capacity: Int
    private let maxWeight: Int
    private let condition = NSCondition()
    /// Read and not yet taken by a preparer, oldest first.
    private var waiting: [(sequence: Int, batch: Raw)] = []
    /// Prepared and not yet taken by the writer, by sequence.
    private var ready: [Int: Prepared] = [:]
    private var readCount = 0, writtenCount = 0
    /// The weight of each batch read and not yet written, by sequence.
    private var weights: [Int: Int] = [:]
    private var weightInFlight = 0
    private var isReadingDone = false, isCancelled = false
    private var failure: Error?
    private var runningThreads = 0

    /// Where the writing thread's time went besides writing.
    package struct WriterTimes: Sendable {
        /// Processor seconds it spent preparing batches itself.
        package var preparing = 0.0
    }

    private init(capacity: Int, maxWeight: Int) {
        self.capacity = capacity
        self.maxWeight = maxWeight
    }

    /// Hands a batch on, waiting for room; false once the writer has
    /// stopped, and the reader should stop too.
    package func put(_ batch: Raw, weight: Int = 0) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while readCount - writtenCount >= capacity || (weightInFlight > 0 && weightInFlight + weight > maxWeight),
              !isCancelled {
            condition.wait()
        }
        guard !isCancelled else { return false }
        waiting.append((readCount, batch))
        if weight > 0 { (weights[readCount], weightInFlight) = (weight, weightInFlight + weight) }
        readCount += 1
        condition.broadcast()
        return true
    }

    /// Runs `read` on a thread of its own and `prepare` on `workers` more,
    /// handing each prepared batch to `write` on this thread in the order
    /// `read` put them. Returns once every thread has stopped.
    @discardableResult
    package static func run(
        capacity: Int, maxWeight: Int = .max, workers: Int,
        read: @escaping @Sendable (BatchPipeline) throws -> Void,
        prepare: @escaping @Sendable (Raw) -> Prepared,
        write: (Prepared) throws -> Void
    ) throws -> WriterTimes {
        let pipeline = BatchPipeline(capacity: max(1, capacity), maxWeight: maxWeight)
        pipeline.start {
            do {
                try read(pipeline)
                pipeline.finishReading(throwing: nil)
            } catch {
                pipeline.finishReading(throwing: error)
            }
        }
        for _ in 0..<workers {
            pipeline.start {
                while let (sequence, batch) = pipeline.takeWaiting() {
                    pipeline.deliver(prepare(batch), as: sequence)
                }
            }
        }
        defer { pipeline.cancelAndJoin() }
        var times = WriterTimes()
        while let batch = try pipeline.next(prepare, times: &times) { try write(batch) }
        return times
    }

    // MARK: - Non public

    private func start(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        runningThreads += 1
        condition.unlock()
        let thread = Thread { [self] in
            body()
            condition.lock()
            runningThreads -= 1
            condition.broadcast()
            condition.unlock()
        }
        // Readers recurse through nested input; 8 MB as a main thread has.
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func finishReading(throwing error: Error?) {
        condition.lock()
        defer { condition.unlock() }
        failure = error
        isReadingDone = true
        condition.broadcast()
    }

    /// The oldest batch no one prepares yet, once there is one; nil when
    /// none will come.
    private func takeWaiting() -> (Int, Raw)? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty, !isReadingDone, !isCancelled { condition.wait() }
        guard !isCancelled, !waiting.isEmpty else { return nil }
        return waiting.removeFirst()
    }

    private func deliver(_ batch: Prepared, as sequence: Int) {
        condition.lock()
        defer { condition.unlock() }
        ready[sequence] = batch
        condition.broadcast()
    }

    /// The next batch in order: ready, or prepared here; nil at the end, or
    /// the reader's error once the batches before it were taken.
    private func next(_ prepare: (Raw) -> Prepared, times: inout WriterTimes) throws -> Prepared? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let batch = ready.removeValue(forKey: writtenCount) {
                weightInFlight -= weights.removeValue(forKey: writtenCount) ?? 0
                writtenCount += 1
                condition.broadcast()
                return batch
            }
            if !waiting.isEmpty {
                let (sequence, batch) = waiting.removeFirst()
                condition.unlock()
                let prepared = PhaseClock.addingThreadTime(to: &times.preparing) { prepare(batch) }
                condition.lock()
                ready[sequence] = prepared
                continue
            }
            if isReadingDone, writtenCount == readCount {
                if let failure { throw failure }
                return nil
            }
            condition.wait()
        }
    }

    private func cancelAndJoin() {
        condition.lock()
        defer { condition.unlock() }
        isCancelled = true
        condition.broadcast()
        while runningThreads > 0 { condition.wait() }
    }
}
