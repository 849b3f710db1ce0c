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
            let contacts = try AllContacts(store: store)
            if let directory {
                let cards = try CardDirectory(path: directory, names: contacts.ids)
                try contacts.forEach { try cards.write($0.vCard(version: vcardVersion.version), named: $0.id) }
                AtomicFile.syncFileSystems()
                return
            }
            switch format {
            case .json:
                var array = JSONOutput.ArrayPrinter()
                try contacts.forEach { array.append($0.jsonText) }
                array.finish()
            case .ndjson:
                try contacts.forEach { print($0.jsonText) }
            case .vcard:
                try contacts.forEach { print($0.vCard(version: vcardVersion.version), terminator: "") }
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

    /// Calls `body` with each contact; stops at the first failed write to
    /// standard output rather than reading on.
    func forEach(_ body: (Contact) throws -> Void) throws {
        for start in stride(from: 0, to: ids.count, by: 500) {
            for contact in try store.contacts(ids: Array(ids[start..<min(start + 500, ids.count)])) {
                try body(contact)
                try StandardOutput.check()
            }
        }
    }
}

/// A directory of one `.vcf` file per contact, as khard and vdirsyncer
/// keep them. Each card is written whole through ``AtomicFile`` (mode
/// 0600) and renamed over an earlier card of the same name; the file
/// system is synced once at the end. A symbolic
/// link or special file (FIFO, device) at a card's name is refused before
/// any card is written: a rename would not follow it, but it is not a card
/// this command wrote, so replacing it is not the command's to decide.
struct CardDirectory {
    let path: String

    init(path: String, names: [String]) throws {
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ContactsDBError.unwritableFile(path: path, reason: "the directory cannot be created there")
        }
        for name in names {
            let card = cardPath(name)
            var status = stat()
            guard lstat(card, &status) == 0 else { continue }
            let kind = status.st_mode & S_IFMT
            if kind == S_IFLNK {
                throw ContactsDBError.unwritableFile(
                    path: card, reason: "a symbolic link is there, which export never follows; remove it or choose another directory")
            }
            if kind != S_IFREG {
                throw ContactsDBError.unwritableFile(
                    path: card, reason: "a special file (not a regular file) is there; remove it or choose another directory")
            }
        }
    }

    func write(_ text: String, named name: String) throws {
        let file = try AtomicFile(path: cardPath(name))
        try file.write(text)
        try file.commit(replacingExisting: true, syncing: false)
    }

    private func cardPath(_ id: String) -> String {
        (path as NSString).appendingPathComponent(CardFileName.of(id))
    }
}
