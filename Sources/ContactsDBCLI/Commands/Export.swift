import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write every contact, or those chosen, as JSON (the import format plus derived fields), vCard or CSV.",
            discussion: """
                JSON and vCard import again with every field: `contactsdb export > all.json` then \
                `contactsdb import all.json`. --directory writes one .vcf file per contact, as address \
                books that keep a folder of cards (khard, vdirsyncer) expect. The filters of `query` and \
                --id choose the contacts written: `contactsdb export --group Family --format vcard`, \
                `contactsdb export --id ID --format vcard`. --format csv --csv-style google|outlook writes \
                the layout Google Contacts or Outlook imports.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable { case json, ndjson, vcard, csv }

        @OptionGroup var database: DatabaseOptions
        @OptionGroup(title: "Choosing contacts") var filters: QueryOptions
        @Option(name: .customLong("id"), help: "Only the contact of this id; repeat for several.") var ids: [String] = []
        @Option(help: "Output format.") var format: Format = .json
        @Option(help: "vCard version to write.") var vcardVersion: VCardVersionArgument = .v4
        @Option(help: ArgumentHelp("Write one .vcf file per contact into this directory (with --format vcard).",
                                   valueName: "directory"))
        var directory: String?
        @Option(help: ArgumentHelp(
            "How groups are written in vCard: as each member's CATEGORIES, or as group cards after the contacts.",
            valueName: "categories|cards"))
        var groups: GroupConvention = .categories
        @Option(help: ArgumentHelp(
            "The CSV layout: this engine's own (every field), or Google Contacts' or Outlook's, which those products import.",
            valueName: "contactsdb|google|outlook"))
        var csvStyle: CSVStyle = .contactsdb

        enum CSVStyle: String, ExpressibleByArgument, CaseIterable {
            case contactsdb, google, outlook
            var layout: CSVLayout {
                switch self {
                case .contactsdb: return .contactsDB
                case .google: return .google
                case .outlook: return .outlook
                }
            }
        }

        enum VCardVersionArgument: String, ExpressibleByArgument, CaseIterable {
            case v3 = "3.0", v4 = "4.0"
            var version: VCardVersion { self == .v3 ? .v3 : .v4 }
        }

        func validate() throws {
            if directory != nil && format != .vcard { throw ValidationError("Please use --directory with --format vcard.") }
            if groups == .cards && format != .vcard { throw ValidationError("Please use --groups cards with --format vcard.") }
            if csvStyle != .contactsdb && format != .csv { throw ValidationError("Please use --csv-style with --format csv.") }
        }

        func run() throws {
            let (query, only) = (try filters.makeQuery(), ids.isEmpty ? nil : ids)
            let store = try database.openStore()
            if let directory {
                try store.exportCards(to: directory, version: vcardVersion.version, groups: groups, matching: query, only: only)
                return
            }
            // Each page is checked: a reader that went away stops the export.
            let contacts = { (body: (Contact) throws -> Void) in
                try store.forEachContact(matching: query, only: only) { contact in
                    try body(contact)
                    try StandardOutput.check()
                }
            }
            switch format {
            case .json:
                var array = JSONOutput.ArrayPrinter()
                try contacts { array.append($0.jsonText) }
                array.finish()
            case .ndjson:
                try contacts { print($0.jsonText) }
            case .vcard:
                let version = vcardVersion.version, categories = groups == .categories
                try contacts { print($0.vCard(version: version, categories: categories), terminator: "") }
                if !categories { try store.groupCards(version: version, inBooks: query.bookNames).forEach { print($0, terminator: "") } }
            case .csv:
                let table = CSVTable(layout: csvStyle.layout, maxChildren: try store.maxChildCounts())
                print(table.header, terminator: "")
                try contacts { print(table.row($0), terminator: "") }
            }
        }
    }
}
