import Foundation

/// Seconds on a monotonic clock, for the import's phases.
enum PhaseClock {
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Runs `body` and adds the seconds it took to `total`.
    static func adding<T>(to total: inout Double, _ body: () throws -> T) rethrows -> T {
        let start = now()
        defer { total += now() - start }
        return try body()
    }
}

/// Seconds that several threads add to at once, such as the time every
/// thread that derives contacts spent deriving.
final class SharedSeconds: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0.0

    var value: Double { lock.withLock { total } }

    /// Runs `body` and adds the seconds it took.
    func adding<T>(_ body: () throws -> T) rethrows -> T {
        let start = PhaseClock.now()
        defer {
            let seconds = PhaseClock.now() - start
            lock.withLock { total += seconds }
        }
        return try body()
    }
}
