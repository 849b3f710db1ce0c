import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every contact in the import format, plus the derived fields.",
            discussion: "The output imports again: `contactsdb export > all.json` then `contactsdb import all.json`.")

        enum Format: String, ExpressibleByArgument, CaseIterable { case json, ndjson }

        @OptionGroup var database: DatabaseOptions
        @Option(help: "Output format.") var format: Format = .json

        func run() throws {
            let store = try database.openStore()
            // Contacts are read a chunk at a time, so memory stays bounded.
            let ids = try store.ids(matching: ContactQuery())
            if format == .json { print("[") }
            var isFirst = true
            for chunk in stride(from: 0, to: ids.count, by: 500).map({ Array(ids[$0..<min($0 + 500, ids.count)]) }) {
                for contact in try store.contacts(ids: chunk) {
                    if format == .json && !isFirst { print(",") }
                    print(contact.jsonText, terminator: format == .json ? "" : "\n")
                    isFirst = false
                }
            }
            if format == .json { print(isFirst ? "]" : "\n]") }
        }
    }
}
