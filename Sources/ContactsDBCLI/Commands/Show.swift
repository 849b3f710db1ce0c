import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one contact with all its fields.")

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The contact's id.") var id: String
        @OptionGroup var output: OutputOptions

        func run() throws {
            let store = try database.openStore()
            guard let contact = try store.contact(id: id) else {
                throw ContactsDBError.contactsNotFound(ids: [id])
            }
            if output.format == .table {
                print(ContactPrinter.detail(contact, regions: try store.phoneRegions(), showingBook: try store.hasSeveralBooks()),
                      terminator: "")
            } else {
                ContactPrinter.print([contact], as: output.format, regions: try store.phoneRegions())
            }
        }
    }
}
