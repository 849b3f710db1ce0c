import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct RemoteCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remote",
            abstract: "Add, list or remove the CardDAV address books the database's books sync with.",
            discussion: """
                Each book syncs with at most one remote, which has the book's name; a database may have any \
                number. A remote's password is read at each use from --password-env or --password-file, else \
                from ~/.netrc's entry for the host, and never stored in the database.
                """,
            subcommands: [Add.self, List.self, Change.self, Remove.self])

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add",
                abstract: "Find the address book behind a URL and sync a book with it from now on.",
                discussion: """
                    URL is the address book itself, or the server's or your principal's URL, from which the \
                    address book is found (/.well-known/carddav, current-user-principal, addressbook-home-set). \
                    Plain http is refused except to this machine. The book NAME is created, or an existing book \
                    without a remote is bound, whose contacts the first sync pushes. A collection syncs with one \
                    book.
                    """)

            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The remote's name, which is its book's.") var name: String
            @Argument(help: "The address book's, the principal's or the server's URL.") var url: String
            @Option(help: "The username.") var username: String?
            @Option(help: ArgumentHelp("The environment variable that holds the password.", valueName: "variable"))
            var passwordEnv: String?
            @Option(help: ArgumentHelp("A file that holds the password (a trailing newline is not part of it).",
                                       valueName: "path"))
            var passwordFile: String?
            @Option(help: ArgumentHelp("The address book's name, when the server has several.", valueName: "name"))
            var addressbook: String?
            @OptionGroup var timeout: RemoteTimeoutOption
            @Option(help: ArgumentHelp(
                "How the address book keeps groups: a card per group, or CATEGORIES on the members' cards (default: the one it holds, found at the first sync, which also follows what the address book holds where it differs from this, saying so).",
                valueName: "cards|categories"))
            var groups: GroupConvention?
            @Option(help: ArgumentHelp(
                "What a sync does with a property both sides changed: merge property by property, keeping the other side's contact as a conflict, or keep both versions, the local one as a contact of its own.",
                valueName: "merge|keep-both"))
            var conflicts: ConflictHandling = .merge

            func validate() throws {
                if passwordEnv != nil, passwordFile != nil {
                    throw ValidationError("Please give --password-env or --password-file, not both.")
                }
            }

            func run() throws {
                let network = try ContactsDBCommand.network()
                let password: PasswordSource = passwordEnv.map { .environment($0) } ?? passwordFile.map { .file($0) } ?? .netrc
                let store = try database.openStore()
                let remote = try network.addRemote(
                    Remote(name: name, url: url, username: username, password: password, groups: groups, conflicts: conflicts),
                    addressBook: addressbook,
                    timeout: timeout.seconds, to: store)
                print("Added the remote \"\(remote.name)\": \(remote.url)")
                // An empty book syncs none of the contacts already here: say where they are.
                let books = try store.books()
                if books.first(where: { $0.name == remote.name })?.contactCount == 0,
                   let other = books.first(where: { $0.contactCount > 0 }) {
                    Terminal.printNotice("""
                        The book "\(remote.name)" holds no contacts: the \(other.contactCount) contacts of "\(other.name)" stay \
                        there; `contactsdb move` takes some over, or `contactsdb remote add \(other.name) URL` syncs that book instead.
                        """)
                }
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract: "Show each remote's name, URL and groups convention (cards, categories, or unknown before the first sync).")
            @OptionGroup var database: DatabaseOptions

            func run() throws {
                for remote in try database.openStore().remotes() {
                    print("\(remote.name)\t\(remote.url)\t\(remote.groups?.rawValue ?? "unknown")")
                }
            }
        }

        struct Change: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "set", abstract: "Change what a sync with the remote does with a property both sides changed.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The remote's name.") var name: String
            @Option(help: ArgumentHelp("merge, or keep-both (`remote add --help` says what each does).", valueName: "merge|keep-both"))
            var conflicts: ConflictHandling

            func run() throws {
                try database.openStore().setConflictHandling(conflicts, forRemote: name)
                print("The remote \"\(name)\" now handles conflicts by \(conflicts.rawValue).")
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove", abstract: "Stop syncing with the remote; its book and the book's contacts stay, as a local book.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The remote's name.") var name: String

            func run() throws {
                try database.openStore().removeRemote(named: name)
                print("Removed the remote \"\(name)\".")
            }
        }
    }
}

extension ConflictHandling: ExpressibleByArgument {}
