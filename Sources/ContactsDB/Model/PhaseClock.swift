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
