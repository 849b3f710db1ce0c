import Foundation

/// JSON text for values written by hand.
public enum JSONText {
    /// A JSON array of strings on one line, as `json_each(?)` takes it;
    /// the outputs people read separate the elements with ", ".
    package static func array(_ texts: [String], separator: String = ",") -> String {
        "[" + texts.map(quote).joined(separator: separator) + "]"
    }

    /// A JSON string literal: quotes, backslashes and control characters
    /// escaped, everything else (UTF-8) as is.
    public static func quote(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += String(format: "\\u%04x", scalar.value)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
