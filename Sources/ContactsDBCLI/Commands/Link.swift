import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Link: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "link",
            abstract: "Record that contacts of different books are one person.",
            discussion: """
                Linked contacts stay cards of their own books (no server sees a link; edits go to the card \
                named) and are one row of `query --unified`. Contacts in one book are duplicates: merge them \
                instead. --all-certain links every certain set of `contactsdb duplicates` whose contacts are \
                all in different books, one line per link (its ids, tab-separated).
                """)

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The contacts' ids.") var ids: [String] = []
        @Flag(help: "Link every certain set of `contactsdb duplicates` with the action link.") var allCertain = false
        @Flag(help: "With --all-certain: print the links it would make and change nothing.") var dryRun = false

        func validate() throws {
            if allCertain {
                guard ids.isEmpty else { throw ValidationError("--all-certain takes no ids.") }
            } else {
                guard !dryRun else { throw ValidationError("--dry-run goes with --all-certain.") }
                guard Set(ids).count >= 2 else { throw ValidationError("Give two or more distinct contact ids to link.") }
            }
        }

        func run() throws {
            let store = try database.openStore()
            if allCertain {
                for set in try store.linkAllCertain(dryRun: dryRun) { print(set.joined(separator: "\t")) }
                return
            }
            print("Linked " + (try store.link(ids)).joined(separator: ", ") + ".")
        }
    }

    struct Unlink: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlink",
            abstract: "Take contacts out of their links and keep them apart for good.",
            discussion: """
                No later suggestion of `contactsdb duplicates` and no `link --all-certain` joins an unlinked \
                contact with those it was linked to again; a `link` naming them does.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var contacts: ContactIDs

        func run() throws {
            for (id, from) in try database.openStore().unlink(contacts.ids) {
                print(from.isEmpty ? "\(id) was linked to none." : "Unlinked \(id) from \(from.joined(separator: ", ")).")
            }
        }
    }

    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Copy contacts to another address book, each linked to its original.",
            discussion: """
                Each copy is a new contact, with an id and a card UID of its own, the same fields and photo, \
                and the groups of the same names in that book (made where missing); it is linked to its \
                original and edited apart from it. Prints each original's id and its copy's, tab-separated.
                """)
        @OptionGroup var database: DatabaseOptions
        @OptionGroup var contacts: ContactIDs
        @Option(help: ArgumentHelp("The book the copies go to.", valueName: "book")) var to: String

        func run() throws {
            let copies = try database.openStore().copy(ids: contacts.ids, toBook: to)
            for (original, copy) in zip(contacts.ids, copies) { print(original + "\t" + copy) }
        }
    }
}
