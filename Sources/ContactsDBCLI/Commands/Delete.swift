import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete contacts with their phones, emails, addresses and messengers.",
            discussion: "When any id is unknown, nothing is deleted.")

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The ids of the contacts to delete.") var ids: [String] = []

        func validate() throws {
            if ids.isEmpty { throw ValidationError("Please give the id of at least one contact to delete.") }
        }

        func run() throws {
            let store = try database.openStore()
            try store.delete(ids: ids)
            let count = Set(ids).count
            print("Deleted \(count) contact\(count == 1 ? "" : "s").")
        }
    }
}
