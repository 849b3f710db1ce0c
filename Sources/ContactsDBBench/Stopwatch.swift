import Foundation

/// Monotonic time and the process's peak memory.
package enum Stopwatch {
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    package static func time(_ body: () throws -> Void) rethrows -> UInt64 {
        let start = now()
        try body()
        return now() - start
    }

    package static func seconds(_ body: () throws -> Void) rethrows -> Double {
        Double(try time(body)) / 1e9
    }

    package static func peakMemoryBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024  // kilobytes on Linux
    }

    /// The value at `fraction` of the sorted times (0.5: the median), the
    /// mean of the two around it when it falls between.
    package static func percentile(_ times: [UInt64], _ fraction: Double) -> Double {
        let sorted = times.sorted()
        let position = fraction * Double(sorted.count - 1)
        let low = Int(position.rounded(.down)), high = Int(position.rounded(.up))
        return (Double(sorted[low]) + Double(sorted[high])) / 2
    }
}
