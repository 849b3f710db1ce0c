import ContactsDB
import Foundation

/// How long `contactsdb watch`, in another process, takes to print the new
/// result after a write in this one: from the start of each write to the
/// line that shows it.
package struct WatchLatency: Encodable {
    var commits: Int
    var medianMilliseconds: Double
    var p99Milliseconds: Double

    /// The page `watch` follows; each write changes one of its contacts.
    static let page = 50

    package static func measure(store: ContactStore, commits: Int) throws -> WatchLatency {
        let watcher = try ProcessLines(
            Bundle.main.executableURL ?? URL(fileURLWithPath: "/proc/self/exe"),
            arguments: ["watch", "--db", store.path, "--limit", String(page), "--format", "ndjson"])
        defer { watcher.stop() }
        guard watcher.next(within: 60) != nil else { throw WatchLatencyTimeout(commit: 0) }
        let ids = try store.ids(matching: ContactQuery().page(limit: page, offset: 0))
        var latencies: [UInt64] = []
        for commit in 1...commits {
            // A random pause, so that writes do not fall into step with
            // the watcher's polling and always wait the same time for it.
            usleep(UInt32.random(in: 0..<60_000))
            let start = Stopwatch.now()
            try store.update(id: ids[commit % ids.count]) { $0.age = commit % 1000 }
            guard let line = watcher.next(within: 10) else { throw WatchLatencyTimeout(commit: commit) }
            latencies.append(line.arrived - start)
        }
        return WatchLatency(
            commits: commits,
            medianMilliseconds: Stopwatch.percentile(latencies, 0.5) / 1e6,
            p99Milliseconds: Stopwatch.percentile(latencies, 0.99) / 1e6)
    }

    package var table: String {
        String(format: "watch: %d writes here, each printed by `watch` in another process after a median of %.1f ms, p99 %.1f ms",
               commits, medianMilliseconds, p99Milliseconds)
    }
}

/// `watch` printed nothing after a write: a bug, so it exits 70.
package struct WatchLatencyTimeout: LocalizedError {
    var commit: Int

    package var errorDescription: String? { "watch printed no result within the time allowed after write \(commit)" }
}
