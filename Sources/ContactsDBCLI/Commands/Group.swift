import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Group: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "group",
            abstract: "Create, rename, delete and list groups, and add or remove their contacts.",
            discussion: """
                A group is in one address book, with contacts of that book; its name is unique in the book \
                whatever its case. Where several books have a group of one name, --book says which. \
                Deleting a group keeps its contacts.
                """,
            subcommands: [Create.self, Rename.self, Delete.self, Add.self, Remove.self, List.self])

        struct Create: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a group.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The group's name.") var name: String
            @OptionGroup var book: BookOption<OneBook>

            func run() throws {
                try database.openStore().createGroup(named: name, inBook: book.name)
                print("Created the group \"\(name)\".")
            }
        }

        struct Rename: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a group.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The group's name.") var name: String
            @Argument(help: "Its new name.") var newName: String
            @OptionGroup var book: BookOption<OneBook>

            func run() throws {
                try database.openStore().renameGroup(name, to: newName, inBook: book.name)
                print("Renamed the group \"\(name)\" to \"\(newName)\".")
            }
        }

        struct Delete: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a group; its contacts stay.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The group's name.") var name: String
            @OptionGroup var book: BookOption<OneBook>

            func run() throws {
                try database.openStore().deleteGroup(named: name, inBook: book.name)
                print("Deleted the group \"\(name)\".")
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Add contacts to a group.")
            @OptionGroup var membership: Membership

            func run() throws {
                try membership.database.openStore().addContacts(ids: membership.contacts.ids, toGroup: membership.name,
                                                                  inBook: membership.book.name)
                print("Added \(membership.summary) to \"\(membership.name)\".")
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove contacts from a group.")
            @OptionGroup var membership: Membership

            func run() throws {
                try membership.database.openStore().removeContacts(ids: membership.contacts.ids, fromGroup: membership.name,
                                                                     inBook: membership.book.name)
                print("Removed \(membership.summary) from \"\(membership.name)\".")
            }
        }

        /// A group and contacts, for `group add` and `group remove`.
        struct Membership: ParsableArguments {
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The group's name.") var name: String
            @OptionGroup var contacts: ContactIDs
            @OptionGroup var book: BookOption<OneBook>

            var summary: String { "\(contacts.ids.count) contact\(contacts.ids.count == 1 ? "" : "s")" }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List the groups with their member counts (and books, when there are several).")
            @OptionGroup var database: DatabaseOptions
            @OptionGroup var output: OutputOptions

            func run() throws {
                let store = try database.openStore()
                let groups = try store.groups()
                switch output.format {
                case .table:
                    let books = try store.hasSeveralBooks()
                    let header = ["GROUP", "MEMBERS"] + (books ? ["BOOK"] : [])
                    print(groups.isEmpty ? "No groups yet; `contactsdb group create NAME` makes one.\n"
                        : ContactPrinter.alignedColumns([header] + groups.map { [$0.name, String($0.memberCount)] + (books ? [$0.book] : []) }),
                          terminator: "")
                case .json:
                    try JSONOutput.printArray(groups)
                case .ndjson:
                    try JSONOutput.printLines(groups)
                case .csv:
                    print("name,memberCount\r")
                    groups.forEach { print("\(CSVTable.field($0.name)),\($0.memberCount)\r") }
                }
            }
        }
    }
}
