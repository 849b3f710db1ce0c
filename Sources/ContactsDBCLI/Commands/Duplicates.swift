import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Duplicates: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "duplicates",
            abstract: "List the sets of contacts that are probably one person, with why.",
            discussion: """
                certain: they share a phone (E.164 form), an email (in any case) or a messenger handle, and \
                their names do not differ. likely: the same name and the same birthday, company or city, or \
                a shared phone, email or handle under different names. A name alone never makes a set. \
                JSON "action": link when the contacts are all in different books (`contactsdb link`), merge when two \
                or more are in one book (`contactsdb merge`). Linked contacts, and contacts `unlink` keeps \
                apart, are never a set again.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var books: BookOption<SeveralBooks>
        @Option(help: "Output format.") var format: ListFormat = .table

        func run() throws {
            let store = try database.openStore()
            let sets = try store.duplicates(inBooks: books.names)
            try RecordList.print(sets, as: format, empty: "No duplicates.", header: ["CONFIDENCE", "CONTACTS", "IDS", "REASONS"],
                                 row: { sets in
                let names = Dictionary(try store.contacts(ids: sets.flatMap(\.ids)).map { ($0.id, $0.displayName) },
                                       uniquingKeysWith: { first, _ in first })
                return sets.map {
                    [$0.confidence.rawValue, $0.ids.map { names[$0] ?? "" }.joined(separator: ", "),
                     $0.ids.joined(separator: " "), $0.reasons.joined(separator: ", ")]
                }
            }, json: {
                "{\"ids\": \(JSONText.array($0.ids, separator: ", ")), \"confidence\": \(JSONText.quote($0.confidence.rawValue)), "
                    + "\"reasons\": \(JSONText.array($0.reasons, separator: ", ")), \"action\": \(JSONText.quote($0.action.rawValue))}"
            })
        }
    }
}
