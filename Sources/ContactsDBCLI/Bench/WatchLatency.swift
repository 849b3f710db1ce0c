import ContactsDB
import Foundation

/// How long `contactsdb watch`, in another process, takes to print the new
/// result after a write in this one: from the start of each write to the
/// line that shows it.
struct WatchLatency: Encodable {
    var commits: Int
    var medianMilliseconds: Double
    var p99Milliseconds: Double

    /// The page `watch` follows; each write changes one of its contacts.
    static let page = 50

    static func measure(store: ContactStore, commits: Int) throws -> WatchLatency {
        // The watcher must not seed the database it opens.
        try store.declineBundledSeed()
        let lines = LineArrivals()
        let watcher = Process()
        watcher.executableURL = Bundle.main.executableURL
        watcher.arguments = ["watch", "--db", store.path, "--limit", String(page), "--format", "ndjson"]
        let output = Pipe()
        watcher.standardOutput = output
        output.fileHandleForReading.readabilityHandler = { lines.received($0.availableData) }
        try watcher.run()
        defer {
            watcher.interrupt()
            watcher.waitUntilExit()
        }
        guard lines.next(within: 60) != nil else { throw WatchLatencyTimeout(commit: 0) }
        let ids = try store.ids(matching: ContactQuery().page(limit: page, offset: 0))
        var latencies: [UInt64] = []
        for commit in 1...commits {
            // A random pause, so that writes do not fall into step with
            // the watcher's polling and always wait the same time for it.
            usleep(UInt32.random(in: 0..<60_000))
            let start = Stopwatch.now()
            try store.update(id: ids[commit % ids.count]) { $0.age = commit % 1000 }
            guard let arrived = lines.next(within: 10) else { throw WatchLatencyTimeout(commit: commit) }
            latencies.append(arrived - start)
        }
        return WatchLatency(
            commits: commits,
            medianMilliseconds: BenchReport.Result.percentile(latencies, 0.5) / 1e6,
            p99Milliseconds: BenchReport.Result.percentile(latencies, 0.99) / 1e6)
    }

    var table: String {
        String(format: "watch: %d writes here, each printed by `watch` in another process after a median of %.1f ms, p99 %.1f ms",
               commits, medianMilliseconds, p99Milliseconds)
    }
}

/// `watch` printed nothing after a write: a bug, so it exits 70.
struct WatchLatencyTimeout: LocalizedError {
    var commit: Int

    var errorDescription: String? { "watch printed no result within the time allowed after write \(commit)" }
}

/// The monotonic times at which whole lines arrived on a pipe, handed out
/// one at a time.
private final class LineArrivals: @unchecked Sendable {
    private let condition = NSCondition()
    private var arrivals: [UInt64] = []

    func received(_ data: Data) {
        let now = Stopwatch.now()
        condition.lock()
        for byte in data where byte == UInt8(ascii: "\n") { arrivals.append(now) }
        condition.broadcast()
        condition.unlock()
    }

    /// When the next line arrived, or nil when none did within `seconds`.
    func next(within seconds: TimeInterval) -> UInt64? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while arrivals.isEmpty {
            guard condition.wait(until: deadline) else { return nil }
        }
        return arrivals.removeFirst()
    }
}
