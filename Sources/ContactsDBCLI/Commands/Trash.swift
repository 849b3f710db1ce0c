import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Trash: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trash",
            abstract: "List, show or empty the deleted contacts kept for `settings trash-days` (30 unless set).",
            discussion: "`contactsdb restore ID` brings one back.",
            subcommands: [List.self, Show.self, Empty.self],
            defaultSubcommand: List.self)

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List the deleted contacts the trash holds, newest first.")
            @OptionGroup var database: DatabaseOptions
            @OptionGroup var books: BookOption<SeveralBooks>
            @OptionGroup var output: OutputOptions

            func run() throws {
                let store = try database.openStore()
                let trashed = try store.trash(inBooks: books.names)
                if try store.trashDays() == 0 {
                    Terminal.printNotice("The trash keeps nothing: `contactsdb settings trash-days N` makes it keep N days.")
                }
                switch output.format {
                case .table:
                    RecordList.print(trashed, as: .table, empty: "The trash is empty.",
                                     header: ["ID", "NAME", "BOOK", "DELETED", "BY"],
                                     row: { $0.map { [$0.id, $0.name, $0.book, Timestamp.string(from: $0.deletedAt), $0.deletedBy.rawValue] } },
                                     json: \.jsonText)
                case .json: RecordList.print(trashed, as: .json, empty: "", header: [], row: { _ in [] }, json: \.jsonText)
                case .ndjson: trashed.forEach { print($0.jsonText) }
                case .csv:
                    print("id,name,book,deletedAt,by\r")
                    for entry in trashed {
                        print([entry.id, entry.name, entry.book, Timestamp.string(from: entry.deletedAt), entry.deletedBy.rawValue]
                            .map(CSVTable.field).joined(separator: ",") + "\r")
                    }
                }
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "Show a deleted contact as it was, as JSON or its vCard.")

            enum Format: String, ExpressibleByArgument, CaseIterable {
                case json, vcard
            }

            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The id the contact had.") var id: String
            @Option(help: "Output format.") var format: Format = .json

            func run() throws {
                let (contact, trashed) = try database.openStore().trashedContact(id: id)
                switch format {
                case .vcard: print(contact.vCard(), terminator: "")
                case .json:
                    // The contact as `show` writes it, then when and by what it was deleted.
                    print(contact.jsonText.dropLast() + ", \"deletedAt\": \(JSONText.quote(Timestamp.string(from: trashed.deletedAt))), "
                        + "\"by\": \(JSONText.quote(trashed.deletedBy.rawValue))}")
                }
            }
        }

        struct Empty: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "empty", abstract: "Forget the deleted contacts for good, or those deleted before a date.")
            @OptionGroup var database: DatabaseOptions
            @Option(help: ArgumentHelp(
                "Forget only those deleted before this UTC date or time (2026-01-31 or 2026-01-31T12:00:00Z).",
                valueName: "date"))
            var before: String?

            func validate() throws {
                if let before { _ = try CutoffDate.parse(before, option: "--before") }
            }

            func run() throws {
                let count = try database.openStore().emptyTrash(before: try before.map { try CutoffDate.parse($0, option: "--before") })
                print("Forgot \(count) deleted contact\(count == 1 ? "" : "s").")
            }
        }

    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Bring deleted contacts back from the trash, as they were, all or none; or a contact's earlier version.",
            discussion: """
                Each comes back with its id, book, groups, favorite place, photo and dates, linked again to the \
                contacts it was linked to that still exist; a sync pushes it as a new card. An id another contact \
                has now is refused (exit 1, nothing restored) unless --as-new gives it a new id and UID. A book \
                that is gone gives the default book. With --revision, the one contact given becomes as it was at \
                that revision again, as a new update that its history keeps too.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var contacts: ContactIDs
        @Flag(help: "Give each a new id and UID, beside a contact that has its id now.") var asNew = false
        @Option(help: ArgumentHelp(
            "Make the one contact given as it was at this revision, one `contactsdb history ID` lists, as a new update.",
            valueName: "revision"))
        var revision: Int?

        func validate() throws {
            if revision != nil, contacts.ids.count != 1 || asNew {
                throw ValidationError("Please give --revision with the id of one contact, without --as-new.")
            }
        }

        func run() throws {
            let store = try database.openStore()
            if let revision {
                let contact = try store.restore(id: contacts.ids[0], revision: revision)
                return print("Restored \(contact.id) as it was at revision \(revision); it is at revision \(contact.revision) now.")
            }
            let result = try store.restore(ids: contacts.ids, asNew: asNew)
            if !result.goneBooks.isEmpty, let book = result.defaultBook {
                Terminal.printNotice("The book\(result.goneBooks.count == 1 ? "" : "s") "
                    + result.goneBooks.map { "\"\($0)\"" }.joined(separator: ", ")
                    + " \(result.goneBooks.count == 1 ? "is" : "are") gone; restored into the default book \"\(book)\".")
            }
            let count = result.ids.count
            print("Restored \(count) contact\(count == 1 ? "" : "s"): \(result.ids.joined(separator: ", ")).")
        }
    }
}
