import ContactsDB
import Foundation

/// Standard output, with every write checked.
///
/// Results are buffered here and written with write(2), whose result is
/// checked each time; the first failure (a full disk, /dev/full) is kept,
/// later output is dropped, and ``check()`` or ``finish()`` throws it, so a
/// command never exits 0 over a truncated result. Long writers (`export`,
/// `generate`) call ``check()`` as they go to stop early.
///
/// A reader that closes the pipe early (`contactsdb export | head`) ends
/// the process by SIGPIPE, quietly, as it ends `cat`: the reader asked for
/// no more, so that is not an error worth a message.
enum StandardOutput {
    private nonisolated(unsafe) static var buffer: [UInt8] = []
    private nonisolated(unsafe) static var failure: Int32?
    private static let isTerminal = isatty(STDOUT_FILENO) == 1
    private static let capacity = 1 << 16

    /// Appends `text`, writing the buffer out when it is full (at once on a
    /// terminal, so that a person sees lines as they come). On a terminal,
    /// control characters are shown, not obeyed (``Terminal/visible(_:)``).
    static func write(_ text: String) {
        append((isTerminal ? Terminal.visible(text) : text).utf8)
    }

    /// Appends raw bytes (a photo).
    static func write(_ data: Data) {
        append(data)
    }

    private static func append(_ bytes: some Sequence<UInt8>) {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity || isTerminal { flush() }
    }

    /// Throws when a write to standard output has failed.
    static func check() throws {
        if let failure {
            throw ContactsDBError.unwritableOutput(reason: String(cString: strerror(failure)))
        }
    }

    /// Writes out what is buffered and throws when any write failed.
    static func finish() throws {
        flush()
        try check()
    }

    private static func flush() {
        var written = 0
        while written < buffer.count, failure == nil {
            let result = buffer[written...].withUnsafeBytes { Foundation.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if result >= 0 {
                written += result
            } else if errno != EINTR {
                failure = errno
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The CLI's `print`: every result goes through ``StandardOutput``, so that
/// no write to standard output goes unchecked. Same signature as Swift's.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    StandardOutput.write(items.map { "\($0)" }.joined(separator: separator) + terminator)
}
