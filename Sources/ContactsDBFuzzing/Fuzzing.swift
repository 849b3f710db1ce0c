import ContactsDB
import ContactsDBSync
import Foundation
import GRDB

/// Entry points for the fuzz targets under `Fuzz/` and the replay of their
/// regression corpus: each feeds arbitrary bytes to one reader or check
/// the way an import or an open does, and returns whether the input was
/// accepted. Any trap on the way is the bug a fuzzer looks for.
package enum Fuzzing {
    /// Reads `bytes` as a contacts JSON file and validates every contact.
    /// Returns the error's sentence when the input is refused.
    @discardableResult
    package static func readJSON(_ bytes: Data) -> Result<Int, ContactsDBError> {
        Result {
            var count = 0
            try ContactJSON.forEachContact(in: bytes, source: "fuzz.json", allowingSingleContact: true) { path, _, contact in
                var unusual = UnusualValues()
                _ = try ContactValidator.imported(contact.draft, at: path, counting: &unusual)
                count += 1
            }
            return count
        }.mapError(asContactsDBError)
    }

    /// Reads `bytes` as a vCard file; the count of cards read, or the first
    /// card's error.
    @discardableResult
    package static func readVCard(_ bytes: Data) -> Result<Int, ContactsDBError> {
        var reader = VCardReader()
        let cards = reader.cards(in: bytes, source: "fuzz.vcf")
        return Result {
            // Validated as the import pipeline validates every card.
            try cards.reduce(0) { count, card in
                var unusual = UnusualValues()
                _ = try ContactValidator.imported(try card.result.get(), at: card.path, counting: &unusual)
                return count + 1
            }
        }.mapError(asContactsDBError)
    }

    /// A UTF-16 or UTF-32 file as UTF-8, as the import pipeline reads it;
    /// any other as it is.
    private static func asUTF8(_ bytes: Data) -> Data {
        bytes.withUnsafeBytes { UnicodeTranscoding.utf8($0.bindMemory(to: UInt8.self)) } ?? bytes
    }

    /// Stores each contact an import takes from `bytes` (vCard, or CSV
    /// when `isCSV`), writes it as an export does in vCard 3.0 and 4.0, and
    /// reads that again: one card must come back, taken by the import,
    /// with as many phones, emails, addresses and messengers as were
    /// stored. A line break in a value that made a property or a card of
    /// its own would trap here.
    package static func roundTripVCard(_ bytes: Data, isCSV: Bool = false) {
        var drafts: [ContactDraft] = []
        func keep(_ result: Result<ContactDraft, ContactsDBError>, _ path: String) {
            var unusual = UnusualValues()
            if let draft = try? ContactValidator.imported(result.get(), at: path, counting: &unusual) { drafts.append(draft) }
        }
        if isCSV {
            var reader = ContactCSV()
            try? asUTF8(bytes).withUnsafeBytes { raw in
                try reader.forEachContact(in: raw.bindMemory(to: UInt8.self), source: "fuzz.csv") { path, _, result in keep(result, path) }
            }
        } else {
            var reader = VCardReader()
            for card in reader.cards(in: bytes, source: "fuzz.vcf") { keep(card.result, card.path) }
        }
        for draft in drafts {
            guard let contact = try? roundTripStore.add(draft) else { continue }
            defer { try? roundTripStore.delete(ids: [contact.id]) }
            for version in [VCardVersion.v3, .v4] {
                var reader = VCardReader()
                let cards = reader.cards(in: Data(contact.vCard(version: version).utf8), source: "export.vcf")
                precondition(cards.count == 1, "vCard \(version.rawValue) of one contact read as \(cards.count) cards")
                var unusual = UnusualValues()
                let back: ContactDraft
                do {
                    back = try ContactValidator.imported(try cards[0].result.get(), at: cards[0].path, counting: &unusual)
                } catch {
                    preconditionFailure("vCard \(version.rawValue) of a stored contact refused: \(error)")
                }
                precondition(back.phones.count == contact.phones.count && back.emails.count == contact.emails.count
                             && back.addresses.count == contact.addresses.count
                             && back.messengers.count == contact.messengers.count,
                             "vCard \(version.rawValue) of a contact read back with other lists")
            }
        }
    }

    /// Keeps no deleted contact: the trash would grow with every input.
    nonisolated(unsafe) private static let roundTripStore: ContactStore = {
        let store = try! ContactStore.makeInMemory()
        try! store.setTrashDays(0)
        return store
    }()

    /// Reads `bytes` as a CSV file, validating each row as the import
    /// pipeline does; the count of rows read, or the first error.
    @discardableResult
    package static func readCSV(_ bytes: Data) -> Result<Int, ContactsDBError> {
        Result {
            var reader = ContactCSV()
            var count = 0
            try asUTF8(bytes).withUnsafeBytes { raw in
                try reader.forEachContact(in: raw.bindMemory(to: UInt8.self), source: "fuzz.csv") { path, _, result in
                    var unusual = UnusualValues()
                    _ = try ContactValidator.imported(try result.get(), at: path, counting: &unusual)
                    count += 1
                }
            }
            return count
        }.mapError(asContactsDBError)
    }

    /// Builds an in-memory database whose migration records are given by
    /// the lines of `bytes`, and runs the check an open runs on it:
    ///
    ///     identifier checksum [appliedAt]   recorded by both tables
    ///     identifier                        only in grdb_migrations
    ///     !identifier checksum              only in schemaMigration
    ///     #foreign                          a table of another tool
    ///
    /// `$name` stands for the bundled migration's checksum, so that the
    /// seeds can reach the paths past the first mismatch; `NULL`, `x:bytes`
    /// and whole numbers store a NULL, a blob and an integer, as a tampered
    /// file may hold them.
    @discardableResult
    package static func checkMigrationRecords(_ bytes: Data) -> Result<Void, ContactsDBError> {
        let migrations = SchemaMigration.bundled
        let checksums = Dictionary(migrations.map { ($0.identifier, $0.checksum) }, uniquingKeysWith: { first, _ in first })
        return Result {
            let queue = try DatabaseQueue()
            try queue.write { db in
                var hasGRDBTable = false, hasRecordTable = false
                for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
                    let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                    guard var identifier = words.first else { continue }
                    if identifier == "#foreign" {
                        try db.execute(sql: MigrationRecordSQL.createForeignTable)
                        continue
                    }
                    let recordOnly = identifier.hasPrefix("!")
                    if recordOnly { identifier.removeFirst() }
                    if !recordOnly {
                        if !hasGRDBTable { try db.execute(sql: MigrationRecordSQL.createGRDBMigrations) }
                        hasGRDBTable = true
                        try db.execute(sql: MigrationRecordSQL.insertGRDBMigration, arguments: [value(identifier)])
                    }
                    guard words.count > 1 else { continue }
                    let checksum = words[1].hasPrefix("$") ? checksums[String(words[1].dropFirst())] ?? words[1] : words[1]
                    if !hasRecordTable { try db.execute(sql: MigrationRecordSQL.createSchemaMigration) }
                    hasRecordTable = true
                    try db.execute(sql: MigrationRecordSQL.insertSchemaMigration,
                                   arguments: [value(identifier), value(checksum), value(words.count > 2 ? words[2] : "")])
                }
            }
            try queue.read { db in
                _ = try Migrator(migrations: migrations).status(db, path: "fuzz.sqlite")
            }
        }.mapError(asContactsDBError)
    }

    /// Reads `bytes` as a server's answers would be read by a sync: as a
    /// WebDAV multistatus (hrefs, statuses, the properties a sync reads,
    /// each card's vCard through the import's reader) and as a `~/.netrc`.
    /// Returns what was found, or the error's sentence.
    @discardableResult
    package static func readDAV(_ bytes: Data) -> Result<String, ContactsDBError> {
        let netrc = Netrc.entry(in: String(decoding: bytes, as: UTF8.self), host: "127.0.0.1")
        return Result {
            let status = try DAVXML.multistatus(bytes, from: URL(string: "http://127.0.0.1/card/")!)
            var cards = 0
            for response in status.responses {
                _ = response.property("getetag")?.trimmedText
                _ = response.property("resourcetype")?.child("addressbook", DAVXML.cardDAV)
                _ = response.property("supported-address-data")?.all("address-data-type", DAVXML.cardDAV)
                    .map { $0.attributes["version"] }
                if let card = response.property("address-data")?.text,
                   (try? ImportedCard.draft(vCard: Data(card.utf8), source: response.href)) != nil {
                    cards += 1
                }
            }
            return "\(status.responses.count) responses, \(cards) cards, token \(status.syncToken ?? "none"), netrc \(netrc != nil)"
        }.mapError(asContactsDBError)
    }

    private static func value(_ word: String) -> DatabaseValue {
        if word == "NULL" { return .null }
        if word.hasPrefix("x:") { return Data(word.utf8.dropFirst(2)).databaseValue }
        if let number = Int64(word) { return number.databaseValue }
        return word.databaseValue
    }

    private static func asContactsDBError(_ error: any Error) -> ContactsDBError {
        error as? ContactsDBError ?? .databaseFailure(reason: "\(error)")
    }
}
