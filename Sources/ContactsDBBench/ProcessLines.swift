import Foundation

/// A child process whose output is read line by line as it comes, each
/// line with the monotonic time it arrived: how `bench` times `watch`, and
/// how tests follow it.
package final class ProcessLines: @unchecked Sendable {
    package struct Line {
        package var text: String
        /// ``Stopwatch/now()`` when the line's end was read.
        package var arrived: UInt64
    }

    private let process = Process()
    private let condition = NSCondition()
    private var lines: [Line] = []
    private var partial = Data()

    /// Starts `executable`; its standard error is dropped.
    package init(_ executable: URL, arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.received(handle.availableData)
        }
        try process.run()
    }

    package var processIdentifier: Int32 { process.processIdentifier }

    /// The next line, or nil when none came within `seconds`.
    package func next(within seconds: TimeInterval) -> Line? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while lines.isEmpty {
            guard condition.wait(until: deadline) else { return nil }
        }
        return lines.removeFirst()
    }

    /// Sends `signal` unless the process has ended, waits for it (after 5
    /// seconds, kills it), and returns its exit status (-1 when a signal
    /// ended it).
    @discardableResult
    package func stop(with signal: Int32 = SIGINT) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = Date(timeIntervalSinceNow: 5)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : -1
    }

    private func received(_ data: Data) {
        let now = Stopwatch.now()
        condition.lock()
        partial.append(data)
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(Line(text: String(decoding: partial[..<newline], as: UTF8.self), arrived: now))
            partial = Data(partial[(newline + 1)...])
        }
        condition.broadcast()
        condition.unlock()
    }
}
