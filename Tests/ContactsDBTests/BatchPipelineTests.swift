import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

/// The import's stages: batches come out in the order they went in
/// whatever the workers' speed, errors keep their place, memory stays
/// bounded, and an import on many workers stores what one on one does.
@Suite struct BatchPipelineTests {
    /// Counts the batches read and not yet written, from both sides.
    final class Flight: @unchecked Sendable {
        private let lock = NSLock()
        private var current = 0, most = 0, read = 0

        func put() { lock.withLock { current += 1; read += 1; most = max(most, current) } }
        func wrote() { lock.withLock { current -= 1 } }
        var highest: Int { lock.withLock { most } }
        var reads: Int { lock.withLock { read } }
    }

    /// Batches 0..<count of `size` numbers each, prepared by squaring
    /// after a random pause, so that workers finish out of order.
    func run(batches count: Int, workers: Int, capacity: Int = 4, failingWriteAt: Int? = nil,
             flight: Flight = Flight()) throws -> [[Int]] {
        struct WriteFailure: Error {}
        var written: [[Int]] = []
        try BatchPipeline<[Int], [Int]>.run(capacity: capacity, workers: workers, read: { pipeline in
            for batch in 0..<count {
                guard pipeline.put(Array(batch * 10..<batch * 10 + 10)) else { return }
                flight.put()
            }
        }, prepare: { numbers in
            usleep(UInt32.random(in: 0...2_000))
            return numbers.map { $0 * $0 }
        }, write: { batch in
            flight.wrote()
            if written.count == failingWriteAt { throw WriteFailure() }
            written.append(batch)
        })
        return written
    }

    static let squares = (0..<40).map { batch in (batch * 10..<batch * 10 + 10).map { $0 * $0 } }

    @Test(arguments: [0, 1, 3, 8])
    func batchesComeOutInTheirOrderWhateverTheWorkers(_ workers: Int) throws {
        let flight = Flight()
        #expect(try run(batches: 40, workers: workers, flight: flight) == Self.squares)
        // At most `capacity` read ahead of the writer, and the one it writes.
        #expect(flight.highest <= 4 + 1)
    }

    /// Batches that weigh (a photo's bytes) are held to the weight allowed
    /// in flight, however many batches that is, and a batch that alone
    /// weighs more still passes.
    @Test func theWeightInFlightStaysWithinItsBound() throws {
        let heavy = 30
        let weights = (0..<60).map { $0 == heavy ? 50 : [0, 3, 7][$0 % 3] }
        /// The weight put and not yet written, at its highest.
        final class Weighing: @unchecked Sendable {
            private let lock = NSLock()
            private var current = 0, most = 0
            func put(_ weight: Int) { lock.withLock { current += weight; most = max(most, current) } }
            func wrote(_ weight: Int) { lock.withLock { current -= weight } }
            var highest: Int { lock.withLock { most } }
        }
        let weighing = Weighing()
        var written: [Int] = []
        try BatchPipeline<Int, Int>.run(capacity: 40, maxWeight: 10, workers: 2, read: { pipeline in
            for (batch, weight) in weights.enumerated() {
                guard pipeline.put(batch, weight: weight) else { return }
                if batch != heavy { weighing.put(weight) }
            }
        }, prepare: { batch in
            usleep(UInt32.random(in: 0...500))
            return batch
        }, write: { batch in
            if batch != heavy { weighing.wrote(weights[batch]) }
            written.append(batch)
        })
        #expect(written == Array(weights.indices))
        // The bound, and the batch being written; 40 batches of 3.3 on
        // average would be in flight without it.
        #expect(weighing.highest <= 10 + 7, "\(weighing.highest)")
    }

    @Test func aReadingErrorComesAfterTheBatchesBeforeIt() throws {
        var seen = 0
        #expect(throws: CancellationError.self) {
            try BatchPipeline<Int, Int>.run(capacity: 2, workers: 3, read: { pipeline in
                for batch in 0..<7 { guard pipeline.put(batch) else { return } }
                throw CancellationError()
            }, prepare: { $0 }, write: { batch in
                #expect(batch == seen)
                seen += 1
            })
        }
        #expect(seen == 7)
    }

    @Test func aWritingErrorStopsTheReaderAndTheWorkers() throws {
        let flight = Flight()
        #expect(throws: (any Error).self) {
            _ = try run(batches: 10_000, workers: 3, failingWriteAt: 5, flight: flight)
        }
        // The reader stopped at the full buffer after the failure.
        #expect(flight.reads < 20)
    }

    /// A taken id comes before a record that fails validation later in the
    /// same batch: the first failure in input order is the one reported.
    @Test func theFirstFailureInInputOrderWinsWithinABatch() throws {
        let store = try ContactStore.makeEmpty()
        let json = Data("""
            [{"id": "a", "firstName": "Anna"}, {"id": "a", "firstName": "Anna"}, {"firstName": "Old", "age": 5000}]
            """.utf8)
        #expect(throws: ContactsDBError.contactExists(field: "contacts[1].id", id: "a")) {
            try store.importContacts(json, source: "two.json")
        }
        #expect(try store.rowCount("contact") == 0)
    }

    /// The same data imported on one worker and on four gives the same
    /// contacts, children, derived keys and search indexes.
    @Test func anImportOnManyWorkersStoresWhatOneWorkerDoes() throws {
        let json = Data(("[" + SyntheticContacts(count: 3_000, seed: 5).map(\.jsonText).joined(separator: ",") + "]").utf8)
        func imported(workers: Int) throws -> ContactStore {
            var options = ContactStore.Options()
            options.seedsOnFirstOpen = false
            options.workers = workers
            let store = try ContactStore.makeInMemory(options: options)
            #expect(try store.importContacts(json, source: "many.json") == 3_000)
            return store
        }
        let one = try imported(workers: 1), four = try imported(workers: 4)
        let dump = """
            SELECT group_concat(id || ':' || sortName || ':' || hex(sortKey) || ':' || searchWords || ':'
                || coalesce(favoritePosition, '') || ':' || (SELECT group_concat(normalized || display, ',') FROM phone WHERE contactPk = pk)
                || ':' || (SELECT group_concat(hex(word), ',') FROM nameWord WHERE contactPk = pk), char(10))
            FROM (SELECT * FROM contact ORDER BY pk)
            """
        let first = try one.read { db in try String.fetchOne(db, sql: dump) }
        #expect(first != nil)
        #expect(first == (try four.read { db in try String.fetchOne(db, sql: dump) }))
        for query in [ContactQuery().filter(.text("call")), ContactQuery().filter(.phone("0426")), ContactQuery().filter(.namePrefix("an"))] {
            #expect(try one.ids(matching: query) == (try four.ids(matching: query)))
        }
        #expect(try four.diagnose().allSatisfy(\.isHealthy))
    }
}
