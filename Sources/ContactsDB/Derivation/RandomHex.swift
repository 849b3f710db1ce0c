import Foundation

/// Secrets made of the system's random numbers, in hex: the calendar
/// feed's token here, and the web app's token, host label, codes and
/// nonces.
package enum RandomHex {
    /// `words` random 64-bit words in hex (16 digits each).
    package static func make(words: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<words).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }
}
