import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Favorite: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "favorite",
            abstract: "Make contacts favorites (appended in the order given), or move one with --position.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var contacts: ContactIDs
        @Option(help: "Move the one contact given to this place among the favorites, counted from 1.")
        var position: Int?

        func validate() throws {
            if position != nil && contacts.ids.count != 1 { throw ValidationError("Please give exactly one id with --position.") }
            if let position, position < 1 { throw ValidationError("Please give --position as 1 or more.") }
        }

        func run() throws {
            let store = try database.openStore()
            if let position {
                try store.moveFavorite(id: contacts.ids[0], to: position)
            } else {
                try store.favorite(ids: contacts.ids)
            }
            try Favorites.printCount(store)
        }
    }

    struct Unfavorite: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unfavorite", abstract: "Remove contacts from the favorites.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var contacts: ContactIDs

        func run() throws {
            let store = try database.openStore()
            try store.unfavorite(ids: contacts.ids)
            try Favorites.printCount(store)
        }
    }

    struct Favorites: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "favorites", abstract: "List the favorites in the order the user set.")

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var output: OutputOptions

        /// "3 favorites.", counted from the index rather than by loading them.
        static func printCount(_ store: ContactStore) throws {
            let count = try store.count(matching: ContactQuery().filter(.favorite))
            print("\(count) favorite\(count == 1 ? "" : "s").")
        }

        func run() throws {
            let store = try database.openStore()
            let favorites = try store.favorites()
            if output.format == .table && favorites.isEmpty {
                print("No favorites yet; `contactsdb favorite ID` adds one.")
            } else {
                ContactPrinter.print(favorites, as: output.format, regions: try store.phoneRegions())
            }
        }
    }
}
