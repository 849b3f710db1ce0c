import ArgumentParser
import ContactsDB

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, ndjson, csv
}

/// `--format`, shared by the commands that print contacts.
struct OutputOptions: ParsableArguments {
    @Option(help: "Output format.")
    var format: OutputFormat = .table
}

extension GroupConvention: ExpressibleByArgument {}
