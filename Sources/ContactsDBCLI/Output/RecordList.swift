import ArgumentParser
import ContactsDB

/// `--format` of the commands that list records rather than contacts.
enum ListFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json
}

/// Prints records (conflicts, duplicate sets, merges) as a table under a
/// header, or as a JSON array one element a line.
enum RecordList {
    static func print<Record>(
        _ records: [Record], as format: ListFormat, empty: String, header: [String],
        row: ([Record]) throws -> [[String]], json: (Record) -> String
    ) rethrows {
        switch format {
        case .table:
            Swift.print(records.isEmpty ? empty + "\n" : ContactPrinter.alignedColumns([header] + (try row(records))),
                        terminator: "")
        case .json:
            var array = JSONOutput.ArrayPrinter()
            records.forEach { array.append(json($0)) }
            array.finish()
        }
    }
}
