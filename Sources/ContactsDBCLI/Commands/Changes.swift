import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Changes: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "changes",
            abstract: "List the contacts added, updated or deleted since a token, each once, and the next token.",
            discussion: """
                Without --since, every contact is listed as added: a sync from scratch. Keep the token \
                printed last and pass it as --since next time. Becoming or ceasing to be a favorite and \
                joining or leaving a group count as updates. A token of another database, or one older \
                than what `contactsdb compact --changes-before` kept, exits 65: sync again from scratch.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case table, json, ndjson
        }

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var books: BookOption<SeveralBooks>
        @Option(help: ArgumentHelp("The token a previous run printed.", valueName: "token")) var since: String?
        @Option(help: "Output format.") var format: Format = .table

        func run() throws {
            let store = try database.openStore()
            let set = try store.changes(since: try since.map(store.changeToken), inBooks: books.names)
            let token = set.token.description
            switch format {
            case .table:
                if set.changes.isEmpty {
                    print("No contacts changed.")
                } else {
                    print(ContactPrinter.alignedColumns(
                        [["KIND", "REVISION", "ID"]] + set.changes.map { [$0.kind.rawValue, String($0.revision), $0.id] }),
                        terminator: "")
                }
                print("Next token: \(token)")
            case .json:
                print("{\"token\": \(JSONText.quote(token)), \"changes\": ", terminator: "")
                try JSONOutput.printArray(set.changes)
                print("}")
            case .ndjson:
                try JSONOutput.printLines(set.changes)
                print(try JSONOutput.line(["token": token]))
            }
        }
    }
}
