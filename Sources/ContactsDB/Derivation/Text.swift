import Foundation

/// Text rules shared by validation and derivation.
enum Text {
    /// Trims the ends and collapses inner runs of white space to one space.
    static func tidy(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// `tidy`, with an empty result read as absent.
    static func tidyOrNil(_ text: String?) -> String? {
        guard let text else { return nil }
        let tidied = tidy(text)
        return tidied.isEmpty ? nil : tidied
    }

    /// The words of a name: split at white space and hyphens.
    static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0.isWhitespace || $0 == "-" || $0 == "‐" })
    }
}
