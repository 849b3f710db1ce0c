import Foundation

/// JSON the CLI writes: its own values (sections, groups, the bench
/// report) through `Encodable`, one compact object a line; contacts arrive
/// already encoded by the library.
///
/// Keys are sorted: Foundation's encoder otherwise emits them in hash
/// order, which changes from run to run, and output should not.
enum JSONOutput {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` as one line of JSON.
    static func line(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Prints `values` as a JSON array, one element a line.
    static func printArray(_ values: [some Encodable]) throws {
        var array = ArrayPrinter()
        for value in values { array.append(try line(value)) }
        array.finish()
    }

    /// Prints each of `values` as one line (ndjson).
    static func printLines(_ values: [some Encodable]) throws {
        for value in values { print(try line(value)) }
    }

    /// Prints a JSON array element by element as elements come, so that an
    /// export of any size streams: `[`, one element a line, `]`; `[]` when
    /// empty.
    struct ArrayPrinter {
        private var isEmpty = true

        /// Appends one element, given as JSON text.
        mutating func append(_ element: String) {
            print(isEmpty ? "[\n" + element : ",\n" + element, terminator: "")
            isEmpty = false
        }

        func finish() {
            print(isEmpty ? "[]" : "\n]")
        }
    }
}
