import ContactsDB
import ContactsDBBench
import Foundation

/// What `bench` measured, as a table or JSON.
struct BenchReport {
    struct Result {
        var query: BenchQuery
        var rows: Int
        /// Nanoseconds of each timed run.
        var engine: [UInt64]
        var raw: [UInt64]

        var engineMedian: Double { Stopwatch.percentile(engine, 0.5) }
        var rawMedian: Double { Stopwatch.percentile(raw, 0.5) }
        var ratio: Double { engineMedian / max(rawMedian, 1) }
    }

    var contacts: Int
    var runs: Int
    var importSeconds: Double
    var importPhases: ImportPhases
    var peakMemoryBytes: Int
    /// The import's raw twin (``RawImport``).
    var twin: RawImport.Times
    var results: [Result]

    var table: String {
        var lines = [
            "contactsdb bench: \(contacts) contacts, \(runs) warm runs per query, SQLite \(RawSQLite.version)",
            String(format: "import: %.2f s, %.0f contacts/s, peak memory %.0f MB",
                   importSeconds, Double(contacts) / importSeconds, Double(peakMemoryBytes) / 1e6),
            String(format: "import phases: parse %.2f s, validate/derive %.2f s, write %.2f s (processor time of their threads); "
                   + "index build %.2f s, search index %.2f s, commit %.2f s",
                   importPhases.parse, importPhases.validateAndDerive, importPhases.write, importPhases.indexBuild,
                   importPhases.searchIndex, importPhases.commit),
            "",
            "import against its raw twin (the same rows through the C API, the same libphonenumber calls):",
            ContactPrinter.alignedColumns([["phase", "engine", "raw twin", "ratio"]] + twinRows).trimmingCharacters(in: .newlines),
            "",
        ]
        let header = ["query", "rows", "engine median", "engine p10–p90", "raw C median", "ratio"]
        let rows = results.map { result in
            [
                "\(result.query.name) \(result.query.title)", String(result.rows),
                Self.duration(result.engineMedian),
                Self.duration(Stopwatch.percentile(result.engine, 0.1)) + " – " + Self.duration(Stopwatch.percentile(result.engine, 0.9)),
                Self.duration(result.rawMedian), String(format: "%.2f×", result.ratio),
            ]
        }
        lines.append(ContactPrinter.alignedColumns([header] + rows).trimmingCharacters(in: .newlines))
        return lines.joined(separator: "\n")
    }

    /// The import's phases beside the twin's: the engine's write is its
    /// thread's processor time, which also frees what it wrote, and its
    /// deriving (all threads, summed) holds its libphonenumber calls with
    /// the rest.
    private var twinRows: [[String]] {
        let phases = importPhases
        let pairs: [(String, Double?, Double)] = [
            ("write rows", phases.write, twin.rows), ("index build", phases.indexBuild, twin.indexBuild),
            ("search index", phases.searchIndex, twin.searchIndex), ("commit", phases.commit, twin.commit),
            ("write side, all", phases.write + phases.indexBuild + phases.searchIndex + phases.commit, twin.sqlite),
            ("libphonenumber calls", nil, twin.phones),
            ("whole import (twin: both on two threads)", importSeconds, twin.together),
        ]
        return pairs.map { name, engine, raw in
            [name, engine.map { String(format: "%.2f s", $0) } ?? "–", String(format: "%.2f s", raw),
             engine.map { String(format: "%.2f×", $0 / max(raw, 1e-9)) } ?? "–"]
        }
    }

    /// The report as JSON: times in microseconds to 0.1, the ratio to
    /// 0.001.
    func json() throws -> String {
        try JSONOutput.line(JSONReport(self))
    }

    private struct JSONReport: Encodable {
        struct Query: Encodable {
            var query: String
            var title: String
            var rows: Int
            var engineMedianMicroseconds: Double
            var engineP10Microseconds: Double
            var engineP90Microseconds: Double
            var rawMedianMicroseconds: Double
            var ratio: Double
        }

        var contacts: Int
        var runs: Int
        var sqlite: String
        var importSeconds: Double
        /// Seconds of each phase; the reading and writing sides overlap.
        var importPhases: ImportPhases
        var contactsPerSecond: Double
        var peakMemoryBytes: Int
        /// Seconds of each phase of the import's raw twin.
        var importTwin: RawImport.Times
        var queries: [Query]

        init(_ report: BenchReport) {
            func micro(_ nanoseconds: Double) -> Double { rounded(nanoseconds / 1e3, places: 1) }
            contacts = report.contacts
            runs = report.runs
            sqlite = RawSQLite.version
            importSeconds = rounded(report.importSeconds, places: 3)
            importPhases = rounding(report.importPhases, [\.parse, \.validateAndDerive, \.write, \.indexBuild, \.searchIndex, \.commit])
            contactsPerSecond = rounded(Double(report.contacts) / report.importSeconds, places: 0)
            peakMemoryBytes = report.peakMemoryBytes
            importTwin = rounding(report.twin, [\.rows, \.indexBuild, \.searchIndex, \.commit, \.phones, \.together])
            queries = report.results.map { result in
                Query(query: result.query.name, title: result.query.title, rows: result.rows,
                      engineMedianMicroseconds: micro(result.engineMedian),
                      engineP10Microseconds: micro(Stopwatch.percentile(result.engine, 0.1)),
                      engineP90Microseconds: micro(Stopwatch.percentile(result.engine, 0.9)),
                      rawMedianMicroseconds: micro(result.rawMedian), ratio: rounded(result.ratio, places: 3))
            }
        }
    }

    static func duration(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1e6: return String(format: "%.0f µs", nanoseconds / 1e3)
        case ..<1e9: return String(format: "%.2f ms", nanoseconds / 1e6)
        default: return String(format: "%.2f s", nanoseconds / 1e9)
        }
    }
}

private func rounded(_ value: Double, places: Int) -> Double {
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale
}

/// `value` with each of `fields` rounded to milliseconds.
private func rounding<Value>(_ value: Value, _ fields: [WritableKeyPath<Value, Double>]) -> Value {
    var value = value
    for field in fields { value[keyPath: field] = rounded(value[keyPath: field], places: 3) }
    return value
}
