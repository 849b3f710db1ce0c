import ContactsDB
import Foundation

/// What `bench` measured, as a table or JSON.
struct BenchReport {
    struct Result {
        var query: BenchQuery
        var rows: Int
        /// Nanoseconds of each timed run.
        var engine: [UInt64]
        var raw: [UInt64]

        var engineMedian: Double { Self.percentile(engine, 0.5) }
        var rawMedian: Double { Self.percentile(raw, 0.5) }
        var ratio: Double { engineMedian / max(rawMedian, 1) }

        static func percentile(_ times: [UInt64], _ fraction: Double) -> Double {
            let sorted = times.sorted()
            let position = fraction * Double(sorted.count - 1)
            let low = Int(position.rounded(.down)), high = Int(position.rounded(.up))
            return (Double(sorted[low]) + Double(sorted[high])) / 2
        }
    }

    var contacts: Int
    var runs: Int
    var importSeconds: Double
    var peakMemoryBytes: Int
    var results: [Result]

    var table: String {
        var lines = [
            "contactsdb bench: \(contacts) contacts, \(runs) warm runs per query, SQLite \(RawSQLite.version)",
            String(format: "import: %.2f s, %.0f contacts/s, peak memory %.0f MB",
                   importSeconds, Double(contacts) / importSeconds, Double(peakMemoryBytes) / 1e6),
            "",
        ]
        let header = ["query", "rows", "engine median", "engine p10–p90", "raw C median", "ratio"]
        let rows = results.map { result in
            [
                "\(result.query.name) \(result.query.title)", String(result.rows),
                Self.duration(result.engineMedian),
                Self.duration(Result.percentile(result.engine, 0.1)) + " – " + Self.duration(Result.percentile(result.engine, 0.9)),
                Self.duration(result.rawMedian), String(format: "%.2f×", result.ratio),
            ]
        }
        lines.append(ContactPrinter.alignedColumns([header] + rows).trimmingCharacters(in: .newlines))
        return lines.joined(separator: "\n")
    }

    var json: String {
        let queries = results.map { result in
            String(format: "{\"query\": \"%@\", \"title\": %@, \"rows\": %d, \"engineMedianMicroseconds\": %.1f, "
                + "\"engineP10Microseconds\": %.1f, \"engineP90Microseconds\": %.1f, \"rawMedianMicroseconds\": %.1f, \"ratio\": %.3f}",
                result.query.name, Self.quoted(result.query.title), result.rows, result.engineMedian / 1e3,
                Result.percentile(result.engine, 0.1) / 1e3, Result.percentile(result.engine, 0.9) / 1e3,
                result.rawMedian / 1e3, result.ratio)
        }
        return String(format: "{\"contacts\": %d, \"runs\": %d, \"sqlite\": \"%@\", \"importSeconds\": %.3f, "
            + "\"contactsPerSecond\": %.0f, \"peakMemoryBytes\": %d, \"queries\": [\n  %@\n]}",
            contacts, runs, RawSQLite.version, importSeconds, Double(contacts) / importSeconds, peakMemoryBytes,
            queries.joined(separator: ",\n  "))
    }

    static func duration(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1e6: return String(format: "%.0f µs", nanoseconds / 1e3)
        case ..<1e9: return String(format: "%.2f ms", nanoseconds / 1e6)
        default: return String(format: "%.2f s", nanoseconds / 1e9)
        }
    }

    private static func quoted(_ text: String) -> String { JSONText.quote(text) }
}
