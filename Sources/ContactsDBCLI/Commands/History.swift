import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "List the versions of a contact its history keeps, newest (the current one) first.",
            discussion: """
                Each version: its revision, when and by what it was written (add, update, web, import FILE, \
                sync:REMOTE, merge, unmerge, move, restore), and the fields it changed from the version before. \
                `contactsdb show ID --revision N` shows one; `contactsdb restore ID --revision N` makes it so again. \
                Kept for `settings history-days` (90 unless set), at most `settings history-versions` (50) per contact.
                """)

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The contact's id.") var id: String
        @Option(help: "Output format.") var format: ListFormat = .table

        func run() throws {
            RecordList.print(try database.openStore().history(id: id), as: format, empty: "",
                             header: ["REVISION", "AT", "BY", "FIELDS"], row: { versions in
                versions.map {
                    [String($0.revision), Timestamp.string(from: $0.at), $0.by?.rawValue ?? "-", $0.fields.joined(separator: ", ")]
                }
            }, json: \.jsonText)
        }
    }
}
