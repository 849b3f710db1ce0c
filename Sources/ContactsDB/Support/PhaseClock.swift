import Foundation

/// Seconds on a monotonic clock, for the import's phases, and of the
/// processor's time the calling thread has had: an import's threads share
/// the cores, so what each did is counted in the time it ran.
enum PhaseClock {
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    static func threadNow() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Runs `body` and adds the processor seconds this thread spent in it.
    static func addingThreadTime<T>(to total: inout Double, _ body: () throws -> T) rethrows -> T {
        let start = threadNow()
        defer { total += threadNow() - start }
        return try body()
    }

    /// Runs `body` and adds the seconds it took to `total`.
    static func adding<T>(to total: inout Double, _ body: () throws -> T) rethrows -> T {
        let start = now()
        defer { total += now() - start }
        return try body()
    }
}

/// Processor seconds that several threads add to at once, such as the
/// time every thread that derives contacts spent deriving.
final class SharedSeconds: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0.0

    var value: Double { lock.withLock { total } }

    /// Runs `body` and adds the processor seconds this thread spent in it.
    func adding<T>(_ body: () throws -> T) rethrows -> T {
        var seconds = 0.0
        defer { lock.withLock { total += seconds } }
        return try PhaseClock.addingThreadTime(to: &seconds, body)
    }
}
