import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct BookCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "book",
            abstract: "List, create, rename and delete address books, and choose the default one.",
            discussion: """
                Every contact and group is in one address book; a book syncs with at most one remote, which \
                has its name (`contactsdb remote add NAME URL` creates the book or binds an existing one). \
                New contacts go into the default book unless --book says otherwise. Names are unique \
                whatever their case.
                """,
            subcommands: [List.self, Create.self, Rename.self, Default.self, Delete.self])

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List the books: name, contacts, `local` or the remote's URL, and which is the default.")
            @OptionGroup var database: DatabaseOptions
            @Option(help: "Output format.") var format: Format = .table

            enum Format: String, ExpressibleByArgument, CaseIterable {
                case table, json
            }

            struct Output: Encodable {
                var name: String
                var contacts: Int
                var remote: String?
                var `default`: Bool

                func encode(to encoder: Encoder) throws {
                    // The remote as null for a local book, not left out.
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(name, forKey: .name)
                    try container.encode(contacts, forKey: .contacts)
                    try container.encode(remote, forKey: .remote)
                    try container.encode(`default`, forKey: .default)
                }

                enum CodingKeys: String, CodingKey {
                    case name, contacts, remote, `default`
                }
            }

            func run() throws {
                let books = try database.openStore().books()
                switch format {
                case .table:
                    let rows = books.map { [$0.name, String($0.contactCount), $0.remoteURL ?? "local", $0.isDefault ? "yes" : ""] }
                    print(ContactPrinter.alignedColumns([["BOOK", "CONTACTS", "REMOTE", "DEFAULT"]] + rows), terminator: "")
                case .json:
                    try JSONOutput.printArray(books.map {
                        Output(name: $0.name, contacts: $0.contactCount, remote: $0.remoteURL, default: $0.isDefault)
                    })
                }
            }
        }

        struct Create: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "create", abstract: "Create an empty local book.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The book's name.") var name: String

            func run() throws {
                try database.openStore().createBook(named: name)
                print("Created the book \"\(name)\".")
            }
        }

        struct Rename: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a book, and so its remote.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The book's name.") var name: String
            @Argument(help: "Its new name.") var newName: String

            func run() throws {
                try database.openStore().renameBook(name, to: newName)
                print("Renamed the book \"\(name)\" to \"\(newName)\".")
            }
        }

        struct Default: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "default", abstract: "Make a book the one new contacts go into unless told otherwise.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The book's name.") var name: String

            func run() throws {
                try database.openStore().setDefaultBook(name)
                print("The book \"\(name)\" is the default.")
            }
        }

        struct Delete: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "delete",
                abstract: "Delete a book with its groups and remote binding.",
                discussion: """
                    A book that holds contacts is deleted only with --move-to, which moves them to another \
                    book first (their next sync deletes their cards from the old remote and creates them on \
                    the new one's). The default book cannot be deleted. No card is deleted from a server.
                    """)
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The book's name.") var name: String
            @Option(help: ArgumentHelp("Move its contacts to this book first.", valueName: "book")) var moveTo: String?

            func run() throws {
                try database.openStore().deleteBook(name, movingContactsTo: moveTo)
                print("Deleted the book \"\(name)\".")
            }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move",
            abstract: "Move contacts to another address book.",
            discussion: """
                Each keeps its id, fields, photo and favorite place; its groups become the groups of the same \
                names in the new book (made where missing). The next sync deletes its card from the old \
                book's server and creates it on the new one's.
                """)
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var contacts: ContactIDs
        @Option(help: ArgumentHelp("The book they go to.", valueName: "book")) var to: String

        func run() throws {
            let moved = try database.openStore().move(ids: contacts.ids, toBook: to)
            print("Moved \(moved.count) contact\(moved.count == 1 ? "" : "s") to \"\(to)\".")
        }
    }
}
