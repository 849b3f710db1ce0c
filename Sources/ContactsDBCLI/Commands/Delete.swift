import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete contacts with their phones, emails, addresses and messengers.",
            discussion: "When any id is unknown, nothing is deleted.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var contacts: ContactIDs
        @Option(help: ArgumentHelp(
            "Delete nothing, and exit 75, if a contact changed after this revision (the one last read).",
            valueName: "revision"))
        var ifRevision: Int?

        func run() throws {
            let store = try database.openStore()
            try store.delete(ids: contacts.ids, ifRevision: ifRevision)
            let count = Set(contacts.ids).count
            print("Deleted \(count) contact\(count == 1 ? "" : "s").")
        }
    }
}
