import Foundation
import CPhoneNumber

/// The regions a number written without "+" is read in, in order: the first
/// in which libphonenumber finds it valid gives its country. Each database
/// has its own (docs/model.md, "Order, sections and phone numbers");
/// `RU,KR` unless set.
public struct PhoneRegions: Hashable, Sendable, CustomStringConvertible {
    /// Upper-case region codes (`RU`), each once, in the order tried.
    public let codes: [String]

    /// `RU,KR`, what a database reads numbers in until told otherwise.
    public static let `default` = PhoneRegions(checked: ["RU", "KR"])

    /// Region codes separated by commas (`US,GB`), in any case; nil when
    /// one is not a region libphonenumber knows, or none is given.
    public init?(_ text: String) {
        let codes = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
        guard !codes.isEmpty, codes.allSatisfy({ !$0.isEmpty && cpn_is_supported_region($0) == 1 }) else { return nil }
        self.init(checked: codes)
    }

    private init(checked codes: [String]) {
        var seen: Set<String> = []
        self.codes = codes.filter { seen.insert($0).inserted }
    }

    /// The codes separated by commas, as the initializer reads them.
    public var description: String { codes.joined(separator: ",") }
}
