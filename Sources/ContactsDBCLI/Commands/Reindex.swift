import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Reindex: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reindex",
            abstract: "Recompute every contact's sort keys, sections and phone forms, in one transaction.",
            discussion: """
                Opening a database does this by itself when its keys were computed by another ICU \
                collation version; run it by hand after restoring an old backup or to be sure.
                """)

        @OptionGroup var database: DatabaseOptions

        func run() throws {
            let store = try database.openStore()
            let count = try store.reindex()
            print("Reindexed \(count) contacts (collation \(try store.collationVersions().current)).")
        }
    }
}
