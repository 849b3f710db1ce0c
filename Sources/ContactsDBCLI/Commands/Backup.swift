import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract: "Write a consistent copy of the database to a new file, while others keep writing.",
            discussion: "Uses SQLite's online backup. The copy opens with `contactsdb --db PATH` like any database.")

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "Where to write the copy; the file must not exist.") var path: String

        func run() throws {
            let store = try database.openStore()
            try store.backup(to: path)
            print("Backed up \(store.path) to \(path).")
        }
    }
}
