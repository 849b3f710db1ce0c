import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write every contact as JSON (the import format plus derived fields), vCard or CSV.",
            discussion: """
                JSON and vCard import again with every field: `contactsdb export > all.json` then \
                `contactsdb import all.json`. --directory writes one .vcf file per contact, as address \
                books that keep a folder of cards (khard, vdirsyncer) expect.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable { case json, ndjson, vcard, csv }

        @OptionGroup var database: DatabaseOptions
        @Option(help: "Output format.") var format: Format = .json
        @Option(help: "vCard version to write.") var vcardVersion: VCardVersionArgument = .v4
        @Option(help: ArgumentHelp("Write one .vcf file per contact into this directory (with --format vcard).",
                                   valueName: "directory"))
        var directory: String?

        enum VCardVersionArgument: String, ExpressibleByArgument, CaseIterable {
            case v3 = "3.0", v4 = "4.0"
            var version: VCardVersion { self == .v3 ? .v3 : .v4 }
        }

        func validate() throws {
            if directory != nil && format != .vcard { throw ValidationError("Please use --directory with --format vcard.") }
        }

        func run() throws {
            let store = try database.openStore()
            let output = try ExportOutput(directory: directory)
            let contacts = try AllContacts(store: store)
            switch format {
            case .json:
                print("[")
                var isFirst = true
                try contacts.forEach { contact in
                    print((isFirst ? "" : ",\n") + contact.jsonText, terminator: "")
                    isFirst = false
                }
                print(isFirst ? "]" : "\n]")
            case .ndjson:
                try contacts.forEach { print($0.jsonText) }
            case .vcard:
                try contacts.forEach { try output.write($0.vCard(version: vcardVersion.version), named: $0.id) }
            case .csv:
                let table = CSVTable(maxChildren: try store.maxChildCounts())
                print(table.header, terminator: "")
                try contacts.forEach { print(table.row($0), terminator: "") }
            }
        }
    }
}

/// Every contact in the default order, read a chunk at a time so memory
/// stays bounded.
struct AllContacts {
    let store: ContactStore
    let ids: [String]

    init(store: ContactStore) throws {
        self.store = store
        ids = try store.ids(matching: ContactQuery())
    }

    func forEach(_ body: (Contact) throws -> Void) throws {
        for start in stride(from: 0, to: ids.count, by: 500) {
            for contact in try store.contacts(ids: Array(ids[start..<min(start + 500, ids.count)])) { try body(contact) }
        }
    }
}

/// Standard output, or one file per item in a directory.
struct ExportOutput {
    let directory: String?

    init(directory: String?) throws {
        self.directory = directory
        if let directory {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
    }

    func write(_ text: String, named name: String) throws {
        guard let directory else { return print(text, terminator: "") }
        let safe = name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? String($0) : "_" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent(safe + ".vcf"))
    }
}
