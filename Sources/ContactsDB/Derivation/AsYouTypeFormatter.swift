import Foundation
import CPhoneNumber

/// libphonenumber's as-you-type formatter, for an add form's phone field:
/// typing 0, 1, 0, 7 in Korea shows `010-7`, and deleting the 7 shows
/// `010` again.
public final class AsYouTypeFormatter: @unchecked Sendable {
    private let formatter: UnsafeMutableRawPointer?
    private let lock = NSLock()

    /// - parameter region: a region code (`KR`); libphonenumber formats
    ///   a number of an unknown region as typed.
    public init(region: String) {
        formatter = cpn_formatter_new(region.uppercased())
    }

    deinit { cpn_formatter_free(formatter) }

    /// What the field shows when it holds `typed`, however it got there
    /// (typed, deleted or pasted): the formatter is fed it afresh.
    public func format(_ typed: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        guard let formatter else { return typed }
        cpn_formatter_clear(formatter)
        var shown = [CChar](repeating: 0, count: 256)
        for scalar in typed.unicodeScalars {
            cpn_formatter_input(formatter, scalar.value, &shown, Int32(shown.count))
        }
        return typed.isEmpty ? "" : String(nulTerminated: shown)
    }
}
