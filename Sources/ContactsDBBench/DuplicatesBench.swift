import ContactsDB
import Foundation

/// `bench --duplicates`: finding duplicates among distinct people with
/// planted sets, checked against what was planted, and the time of a
/// merge, an unmerge and a merge of every certain set.
package struct DuplicatesBench: Encodable {
    var contacts: Int
    var plantedSets: Int
    /// Planted sets found whole, with the confidence planted.
    var plantedFound: Int
    /// Sets found that were not planted, or planted sets found in part.
    var otherSets: Int
    var findRuns: Int
    var findMedianSeconds: Double
    var findMaxSeconds: Double
    var mergeMedianMilliseconds: Double
    var unmergeMedianMilliseconds: Double
    var mergeAllCertainSeconds: Double
    var mergedAllCertain: Int

    static let findRuns = 5
    /// Pairs merged and taken back one by one.
    static let pairs = 20

    package static func measure(store: ContactStore, contacts: Int, planted: [DuplicateSet]) throws -> DuplicatesBench {
        var times: [UInt64] = [], found: [DuplicateSet] = []
        for _ in 0..<findRuns { times.append(try Stopwatch.time { found = try store.duplicates() }) }
        let expected = Dictionary(uniqueKeysWithValues: planted.map { (Set($0.ids), $0.confidence) })
        let plantedFound = found.filter { expected[Set($0.ids)] == $0.confidence }.count

        let pairs = planted.filter { $0.ids.count == 2 && $0.confidence == .certain }.prefix(pairs)
        var merges: [(id: Int, time: UInt64)] = [], unmerges: [UInt64] = []
        for pair in pairs {
            var id: Int?
            let time = try Stopwatch.time { id = try store.merge(pair.ids).mergeID }
            if let id { merges.append((id, time)) }
        }
        for merge in merges { unmerges.append(try Stopwatch.time { try store.unmerge(merge.id) }) }
        var all: [MergeResult] = []
        let allTime = try Stopwatch.time { all = try store.mergeAllCertain() }
        return DuplicatesBench(
            contacts: contacts, plantedSets: planted.count, plantedFound: plantedFound,
            otherSets: found.count - plantedFound, findRuns: findRuns,
            findMedianSeconds: Stopwatch.percentile(times, 0.5) / 1e9,
            findMaxSeconds: Double(times.max() ?? 0) / 1e9,
            mergeMedianMilliseconds: Stopwatch.percentile(merges.map(\.time), 0.5) / 1e6,
            unmergeMedianMilliseconds: Stopwatch.percentile(unmerges, 0.5) / 1e6,
            mergeAllCertainSeconds: Double(allTime) / 1e9, mergedAllCertain: all.count)
    }

    package var table: String {
        String(format: """
            duplicates among %d contacts: %d of %d planted sets found, %d other sets; \
            median of %d runs %.3f s (max %.3f s)
            merge of 2 contacts: median %.1f ms; unmerge: median %.1f ms (%d each)
            merge --all-certain: %d merges in %.2f s
            """, contacts, plantedFound, plantedSets, otherSets, findRuns, findMedianSeconds, findMaxSeconds,
                      mergeMedianMilliseconds, unmergeMedianMilliseconds, Self.pairs, mergedAllCertain, mergeAllCertainSeconds)
    }
}
