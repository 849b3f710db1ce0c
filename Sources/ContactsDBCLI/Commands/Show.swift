import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show one contact with all its fields, or its vCard.",
            discussion: """
                Every field of the card: names, phones, emails, addresses, messengers, the card's texts (note, \
                birthday, …) and lists (dates, URLs, relations, social profiles, extra properties), groups, \
                favorite and photo. `contactsdb show ID --format vcard > card.vcf` gives a card to send someone. \
                The table ends with the ids linked with the contact (`linked:`), and JSON has them as "linked", \
                when it is linked.
                """)

        /// The formats of ``OutputFormat`` and the contact's card.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case table, json, ndjson, csv, vcard
        }

        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The contact's id.") var id: String
        @Option(help: "Output format.") var format: Format = .table
        @Option(help: "vCard version to write (with --format vcard; default 4.0).")
        var vcardVersion: Export.VCardVersionArgument?
        @Option(help: ArgumentHelp("Show the contact as it was at this revision, one `contactsdb history ID` lists.",
                                   valueName: "revision"))
        var revision: Int?

        func validate() throws {
            if vcardVersion != nil && format != .vcard {
                throw ValidationError("Please use --vcard-version with --format vcard.")
            }
        }

        func run() throws {
            let store = try database.openStore()
            guard let contact = try revision.map({ try store.contact(id: id, revision: $0) }) ?? store.contact(id: id) else {
                throw ContactsDBError.contactsNotFound(ids: [id])
            }
            switch format {
            case .table:
                print(ContactPrinter.detail(contact, regions: try store.phoneRegions(), showingBook: try store.hasSeveralBooks()),
                      terminator: "")
                let linked = try store.linkedIDs(of: id)
                // Aligned as the detail's own lines are.
                if !linked.isEmpty { print("  " + "linked:".padding(toLength: 16, withPad: " ", startingAt: 0) + linked.joined(separator: ", ")) }
            case .vcard: print(contact.vCard(version: (vcardVersion ?? .v4).version), terminator: "")
            case .json, .ndjson:
                ContactPrinter.printJSON([contact.jsonText(linked: try store.linkedIDs(of: id))], lines: format == .ndjson)
            case .csv:
                ContactPrinter.print([contact], as: .csv, regions: try store.phoneRegions())
            }
        }
    }
}
