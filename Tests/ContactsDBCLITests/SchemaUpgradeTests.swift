import ContactsDBTestSupport
import Foundation
import GRDB
import Testing

/// A database written by the build before migration 0002 (the schema users
/// have), recorded with Fixtures/make_schema_v1_fixture.sh, opened by this
/// build: migrated in place with every contact, child and seed record, and
/// answering as that build did.
@Suite struct SchemaUpgradeTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Exported lines without their E.164 forms, which libphonenumber now
    /// decides (it finds 010-0xxx numbers invalid, which the v1 build gave one).
    static func withoutE164(_ lines: [String]) -> [String] {
        lines.map { $0.replacing(#/, "e164": "\+\d+"/#, with: "") }
    }

    /// Exported lines without the keys added since v1 (the revision is
    /// that of the reindex the new collation brings on; the book is the one
    /// the upgrade put every contact in).
    static func withoutNewKeys(_ lines: [String]) -> [String] {
        lines.map {
            $0.replacingOccurrences(of: #""favorite": false, "groups": [], "#, with: "")
                .replacing(#/"revision": \d+, /#, with: "")
                .replacingOccurrences(of: #", "book": "local""#, with: "")
        }
    }

    /// The v1 build's answers, by the command that produced them.
    static let answers = recordedAnswers("schema-v1-answers.txt")

    /// A fixture build's answers, by the command that produced them.
    static func recordedAnswers(_ file: String) -> [String: [String]] {
        let text = try! String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)
        var sections: [String: [String]] = [:]
        var current = ""
        for line in text.split(whereSeparator: \.isNewline).map(String.init) {  // CSV lines end in CR LF
            if line.hasPrefix("# ") { current = String(line.dropFirst(2)) } else { sections[current, default: []].append(line) }
        }
        return sections
    }

    func upgradedCopy() throws -> String { try Self.copy("schema-v1.sqlite", into: directory) }

    /// A copy of a fixture database in `directory`, to upgrade.
    static func copy(_ fixture: String, into directory: TemporaryDirectory) throws -> String {
        let db = directory.path("contacts.sqlite")
        try FileManager.default.copyItem(atPath: fixtures.appendingPathComponent(fixture).path, toPath: db)
        return db
    }

    func seedRecords(_ db: String) throws -> [Row] {
        try DatabaseQueue(path: db).read { db in try Row.fetchAll(db, sql: "SELECT * FROM seedImport ORDER BY checksum") }
    }

    @Test func aVersion1DatabaseMigratesInPlaceWithEverythingIntact() throws {
        let db = try upgradedCopy()
        let seedsBefore = try seedRecords(db)
        #expect(seedsBefore.count == 1)

        let first = try cli.run(db: db, ["migrate"])
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Applied 0002_favorites_groups"))
        #expect(first.stderr.contains("Backed up the database to \(db).before-0002_favorites_groups-"), "\(first.stderr)")
        #expect(try seedRecords(db) == seedsBefore)

        // Every contact and child exactly as the v1 build exported them; the
        // new keys and the E.164 forms are the only difference.
        let export = Self.withoutNewKeys(try cli.run(db: db, ["export", "--format", "ndjson"]).lines)
        #expect(Self.withoutE164(export) == Self.withoutE164(Self.answers["export"] ?? []))
        #expect(export.count == 308)

        let queries: [(String, [String])] = [
            ("query --has telegram --has phone --has email --sort last-name:desc",
             ["query", "--has", "telegram", "--has", "phone", "--has", "email", "--sort", "last-name:desc", "--format", "ndjson"]),
            ("query --name an --limit 20", ["query", "--name", "an", "--limit", "20", "--format", "ndjson"]),
        ]
        for (name, arguments) in queries {
            let ids = try cli.run(db: db, arguments).lines.map { String($0.split(separator: "\"")[3]) }
            #expect(ids == Self.answers[name], "\(name)")
        }
        #expect(try cli.run(db: db, ["query", "--sections", "--format", "csv"]).stdout
            .split(whereSeparator: \.isNewline).map(String.init) == Self.answers["query --sections"])
        #expect(try cli.run(db: db, ["query", "--phone", "345", "--count"]).lines == Self.answers["query --phone 345 --count"])

        // Its contacts are there to sync, all added by one write.
        let changes = try cli.run(db: db, ["changes", "--format", "ndjson"]).lines.dropLast()
        #expect(changes.count == 308 && changes.allSatisfy { $0.contains(#""kind":"added""#) })
        #expect(Set(changes.map { $0.replacing(#/.*"revision":/#, with: "") }).count == 1)

        // And the new things work on it.
        #expect(try cli.run(db: db, ["favorite", "seed-ivan-petrov", "c5"]).exitCode == 0)
        #expect(try cli.run(db: db, ["group", "create", "Family"]).exitCode == 0)
        #expect(try cli.run(db: db, ["group", "add", "Family", "c5", "c6"]).exitCode == 0)
        let both = try cli.run(db: db, ["query", "--favorite", "--group", "family", "--format", "ndjson"])
        #expect(both.lines.map { String($0.split(separator: "\"")[3]) } == ["c5"])
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
        #expect(try cli.run(db: db, ["migrate", "--status"]).lines.allSatisfy { $0.hasPrefix("applied") })
    }

    /// 0003 fills `contact.nameWords` in SQL from `nameWord`; the words
    /// must be those the writer computes (`reindex` rewrites every contact).
    @Test func theUpgradeFillsNameWordsAsTheWriterDoes() throws {
        let db = try upgradedCopy()
        #expect(try cli.run(db: db, ["migrate"]).exitCode == 0)
        func words() throws -> [String: Set<Substring>] {
            try DatabaseQueue(path: db).read { db in
                try Row.fetchAll(db, sql: "SELECT id, nameWords FROM contact").reduce(into: [:]) { words, row in
                    let text: String = row["nameWords"]
                    #expect(text.hasPrefix(" ") && !text.contains("  "), "\(text)")
                    words[row["id"]] = Set(text.split(separator: " "))
                }
            }
        }
        let migrated = try words()
        #expect(migrated.count > 300 && migrated.values.allSatisfy { !$0.isEmpty })
        #expect(try cli.run(db: db, ["reindex"]).exitCode == 0)
        #expect(try words() == migrated)
    }

    @Test func anUpgradedSchemaIsTheSameAsAFreshOne() throws {
        let (upgradedSchema, freshSchema) = try cli.schemas(migrating: try upgradedCopy(), andMaking: directory.path("fresh.sqlite"))
        #expect(upgradedSchema == freshSchema)
        #expect(freshSchema.contains { $0["name"] == "groupMember" })
    }
}

/// A database written by the build before migration 0006 (the whole card),
/// recorded with Fixtures/make_schema_v5_fixture.sh: upgraded in place, its
/// contact and messenger tables rebuilt with every row, favorite and group
/// membership, answering as that build did, and holding whole cards after.
@Suite struct SchemaVersion5UpgradeTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()
    static let answers = SchemaUpgradeTests.recordedAnswers("schema-v5-answers.txt")

    func upgradedCopy() throws -> String { try SchemaUpgradeTests.copy("schema-v5.sqlite", into: directory) }

    @Test func aVersion5DatabaseMigratesInPlaceAndAnswersAsBefore() throws {
        let db = try upgradedCopy()
        let first = try cli.run(db: db, ["migrate"])
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Applied 0006_whole_card"))

        // Every contact and child exactly as the v5 build exported them: a
        // contact without whole-card fields writes the same JSON, and the
        // revision is the one key added since.
        let export = try cli.run(db: db, ["export", "--format", "ndjson"]).lines
            .map { $0.replacing(#/"revision": \d+, /#, with: "").replacingOccurrences(of: #", "book": "local""#, with: "") }
        #expect(export == Self.answers["export"])
        #expect(export.count == 308)
        let queries: [(String, [String])] = [
            ("query --has telegram --has phone --has email --sort last-name:desc",
             ["query", "--has", "telegram", "--has", "phone", "--has", "email", "--sort", "last-name:desc", "--format", "ndjson"]),
            ("query --name an --limit 20", ["query", "--name", "an", "--limit", "20", "--format", "ndjson"]),
            ("favorites", ["favorites", "--format", "ndjson"]),
        ]
        for (name, arguments) in queries {
            let ids = try cli.run(db: db, arguments).lines.map { String($0.split(separator: "\"")[3]) }
            #expect(ids == Self.answers[name], "\(name)")
        }
        #expect(try cli.run(db: db, ["query", "--sections", "--format", "csv"]).stdout
            .split(whereSeparator: \.isNewline).map(String.init) == Self.answers["query --sections"])
        #expect(try cli.run(db: db, ["query", "--phone", "345", "--count"]).lines == Self.answers["query --phone 345 --count"])
        #expect(try cli.run(db: db, ["query", "--group", "Book club", "--count"]).lines == ["3"])
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)

        // The whole card on the upgraded file, across processes.
        let card = directory.write("card.vcf", """
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:Short Code\r
            TEL:*100#\r
            BDAY:--02-29\r
            IMPP:skype:short.code\r
            X-KEPT;P=1:verbatim\r
            END:VCARD\r

            """)
        let imported = try cli.run(db: db, ["import", card])
        #expect(imported.exitCode == 0 && imported.stderr.contains("Kept 1 phone number, 1 messenger of another service"), "\(imported.stderr)")
        let exported = try cli.run(db: db, ["export", "--format", "vcard", "--vcard-version", "3.0"]).stdout
        #expect(exported.contains("TEL:*100#\r\n") && exported.contains("X-KEPT;P=1:verbatim\r\n")
                && exported.contains("BDAY;X-APPLE-OMIT-YEAR=1604:1604-02-29\r\n") && exported.contains("IMPP:skype:short.code\r\n"))
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
    }

    @Test func anUpgradedSchemaIsTheSameAsAFreshOne() throws {
        let (upgraded, fresh) = try cli.schemas(migrating: try upgradedCopy(), andMaking: directory.path("fresh.sqlite"))
        #expect(upgraded == fresh)
    }
}

/// A database of schema version 4 (migrations 0001–0016, one address book),
/// recorded with Fixtures/make_schema_0016_fixture.sh: a remote synced with
/// group cards, favorites, a merge record, a photo and an edit not yet
/// synced. Upgraded to schema version 5, everything is in one book named
/// after the remote, and it answers as that build did.
@Suite struct SchemaVersion4UpgradeTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()
    static let answers = SchemaUpgradeTests.recordedAnswers("schema-0016-answers.txt")

    func upgradedCopy() throws -> String { try SchemaUpgradeTests.copy("schema-0016.sqlite", into: directory) }

    /// How many rows each table of the sync, groups, merges and photos holds.
    func rowCounts(_ db: String) throws -> [String: Int] {
        let tables = ["contact", "syncedCard", "syncPush", "syncedGroup", "syncGroupPush", "syncConflict", "contactGroup",
                      "groupMember", "groupProperty", "groupPendingMember", "contactMerge", "contactMergePart", "contactPhoto"]
        return try DatabaseQueue(path: db).read { db in
            try Dictionary(uniqueKeysWithValues: tables.map { ($0, try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? -1) })
        }
    }

    @Test func everythingGoesIntoOneBookNamedAfterTheRemoteAndAnswersAsBefore() throws {
        let db = try upgradedCopy()
        let before = try rowCounts(db)
        #expect(before["syncedCard"]! > 200 && before["syncedGroup"]! > 0 && before["contactMerge"] == 1 && before["contactPhoto"] == 1)
        let migrated = try cli.run(db: db, ["migrate"])
        #expect(migrated.exitCode == 0, "\(migrated.stderr)")
        #expect(migrated.stdout.contains("Applied 0017_books"))
        #expect(try rowCounts(db) == before)

        // Every contact exactly as that build exported it, in the book "home"
        // (the revision is that of the reindex the search keys bring on).
        let export = try cli.run(db: db, ["export", "--format", "ndjson"]).lines
        #expect(export.count == 210)
        #expect(export.allSatisfy { $0.contains(#", "book": "home""#) })
        let withoutRevision = { (line: String) in line.replacing(#/"revision": \d+, /#, with: "") }
        #expect(export.map { withoutRevision($0.replacingOccurrences(of: #", "book": "home""#, with: "")) }
            == Self.answers["export"]?.map(withoutRevision))
        let queries: [(String, [String])] = [
            ("query --has telegram --has phone --has email --sort last-name:desc",
             ["query", "--has", "telegram", "--has", "phone", "--has", "email", "--sort", "last-name:desc", "--format", "ndjson"]),
            ("query --group Book club", ["query", "--group", "Book club", "--format", "ndjson"]),
            ("favorites", ["favorites", "--format", "ndjson"]),
        ]
        for (name, arguments) in queries {
            let ids = try cli.run(db: db, arguments).lines.map { String($0.split(separator: "\"")[3]) }
            #expect(ids == Self.answers[name], "\(name)")
        }
        // `ivan` now also finds Иван and Ivanova's transliterations: every
        // contact found before is still found, in the same order.
        let ivan = try cli.run(db: db, ["query", "--text", "ivan", "--format", "ndjson"]).lines.map { String($0.split(separator: "\"")[3]) }
        #expect(ivan.filter { Self.answers["query --text ivan --limit 20"]!.contains($0) } == Self.answers["query --text ivan --limit 20"])
        for (name, arguments) in [("query --sections", ["query", "--sections", "--format", "csv"]),
                                  ("group list", ["group", "list", "--format", "csv"]), ("merges", ["merges"])] {
            #expect(try cli.run(db: db, arguments).stdout.split(whereSeparator: \.isNewline).map(String.init) == Self.answers[name],
                    "\(name)")
        }
        let remote = try cli.run(db: db, ["remote", "list"]).stdout
        let url = String(remote.split(separator: "\t")[1])
        #expect([remote.replacingOccurrences(of: url, with: "ADDRESSBOOK").trimmingCharacters(in: .newlines)] == Self.answers["remote list"])
        #expect(try cli.run(db: db, ["book", "list", "--format", "json"]).stdout
            == "[\n{\"contacts\":210,\"default\":true,\"name\":\"home\",\"remote\":\"\(url)\"}\n]\n")
        // Every record is the book's, and the edit made after the last sync is still one to push.
        let (books, pending) = try DatabaseQueue(path: db).read { db in
            (try Int.fetchAll(db, sql: """
                SELECT DISTINCT bookId FROM contact UNION SELECT bookId FROM syncedCard UNION SELECT bookId FROM syncedGroup
                UNION SELECT bookId FROM contactGroup
                """),
             try Bool.fetchOne(db, sql: """
                SELECT c.revision > s.revision FROM contact c JOIN syncedCard s ON s.contactId = c.id WHERE c.id = 'c8'
                """))
        }
        #expect(books == [1])
        #expect(pending == true)
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
    }

    @Test func anUpgradedSchemaIsTheSameAsAFreshOne() throws {
        let (upgraded, fresh) = try cli.schemas(migrating: try upgradedCopy(), andMaking: directory.path("fresh.sqlite"))
        #expect(upgraded == fresh)
    }
}
