import ContactsDB
@testable import ContactsDBSynthetic
import ContactsDBTestSupport
import Foundation
import GRDB
import Testing

/// `link`, `unlink`, `copy` and `query --unified` (docs/cli.md, "One person
/// across books: links"), each command a process of its own against one
/// database file.
@Suite struct LinkCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()
    static let books = ["work", "family", "home"]
    static let (contacts, sets) = (300, 40)

    /// Where a generated contact goes: a planted set's cards each to
    /// another book, but every fourth set all into one; a decoy pair's two
    /// namesakes to two books; the rest in turn.
    static func book(of id: String) -> Int {
        let numbers = id.dropFirst().split(separator: "-").compactMap { Int($0) }
        switch id.first {
        case "p": return numbers[0] % 4 == 3 ? 0 : (numbers[0] + numbers[1]) % 3
        case "d": return (numbers[0] + numbers[1]) % 3
        default: return (numbers.first ?? 0) % 3
        }
    }

    /// A line of `show`'s table, its label left out.
    func shown(_ db: String, _ id: String, _ label: String) throws -> String? {
        try cli.run(db: db, ["show", id]).lines.first { $0.hasPrefix("  \(label):") }?
            .dropFirst(label.count + 3).trimmingCharacters(in: .whitespaces)
    }

    /// The planted duplicates spread over three books.
    func plantedDatabase() throws -> String {
        let db = try cli.makeEmptyDatabase("planted.sqlite", in: directory)
        let generated = try cli.run(["generate", "--contacts", "\(Self.contacts)", "--planted-duplicates", "\(Self.sets)"])
        let all = try #require(try JSONSerialization.jsonObject(with: generated.stdoutData) as? [[String: Any]])
        for (index, book) in Self.books.enumerated() {
            #expect(try cli.run(db: db, ["book", "create", book]).exitCode == 0)
            let mine = all.filter { Self.book(of: $0["id"] as? String ?? "") == index }
            let file = directory.path("\(book).json")
            try JSONSerialization.data(withJSONObject: mine).write(to: URL(fileURLWithPath: file))
            let imported = try cli.run(db: db, ["import", file, "--book", book])
            #expect(imported.exitCode == 0, "\(imported.stderr)")
        }
        return db
    }

    @Test func linkAllCertainLinksExactlyThePlantedCrossBookSets() throws {
        let db = try plantedDatabase()
        let expected = Set(PlantedDuplicates(count: Self.contacts, sets: Self.sets).planted
            .filter { $0.confidence == .certain && Set($0.ids.map(Self.book)).count == $0.ids.count }
            .map { Set($0.ids) })
        #expect(expected.count > 10)
        let dryRun = try cli.run(db: db, ["link", "--all-certain", "--dry-run"])
        #expect(Set(dryRun.lines.map { Set($0.split(separator: "\t").map(String.init)) }) == expected, "\(dryRun.stdout)")
        let linked = try cli.run(db: db, ["link", "--all-certain"])
        #expect(linked.exitCode == 0 && linked.lines.count == expected.count)
        #expect(Set(linked.lines.map { Set($0.split(separator: "\t").map(String.init)) }) == expected)
        #expect(!linked.stdout.contains("d"), "a namesake is never linked")
        // Linked once: nothing more to link, and nothing left to suggest.
        #expect(try cli.run(db: db, ["link", "--all-certain"]).stdout.isEmpty)
        let duplicates = try cli.run(db: db, ["duplicates", "--format", "json"]).stdout
        let sets = try #require(try JSONSerialization.jsonObject(with: Data(duplicates.utf8)) as? [[String: Any]])
        #expect(!sets.contains { $0["confidence"] as? String == "certain" && $0["action"] as? String == "link" })
        #expect(sets.contains { $0["action"] as? String == "merge" }, "the sets planted in one book are left to merge")

        let persons = Self.contacts - expected.map { $0.count - 1 }.reduce(0, +)
        #expect(try cli.run(db: db, ["query", "--unified", "--count"]).stdout == "\(persons)\n")
        #expect(try cli.run(db: db, ["query", "--count"]).stdout == "\(Self.contacts)\n")
        let sections = try cli.run(db: db, ["query", "--unified", "--sections", "--format", "json"]).stdoutData
        let counts = try #require(try JSONSerialization.jsonObject(with: sections) as? [[String: Any]])
        #expect(counts.compactMap { $0["count"] as? Int }.reduce(0, +) == persons)
    }

    @Test func linkUnlinkShowAndMergeAcrossBooks() throws {
        let db = try plantedDatabase()
        // p0: one person three times, in three books.
        #expect(try cli.run(db: db, ["link", "p0-0", "p0-1", "p0-2"]).stdout == "Linked p0-0, p0-1, p0-2.\n")
        #expect(try shown(db, "p0-1", "linked") == "p0-0, p0-2")
        let json = try cli.run(db: db, ["query", "--unified", "--format", "json", "--phone", "+7 912 100-00-00"]).stdout
        #expect(json.contains(#""ids": ["p0-0", "p0-1", "p0-2"], "id": "p0-0""#), "\(json)")
        let before = try cli.run(db: db, ["query", "--format", "json"]).stdout
        let merge = try cli.run(db: db, ["merge", "p0-0", "p0-1"])
        #expect(merge.exitCode == 64 && merge.stderr.contains("contactsdb link p0-0 p0-1"), "\(merge.stderr)")
        // p3 was planted in one book.
        let link = try cli.run(db: db, ["link", "p3-0", "p3-1"])
        #expect(link.exitCode == 64 && link.stderr.contains("contactsdb merge p3-0 p3-1"), "\(link.stderr)")
        #expect(try cli.run(db: db, ["query", "--format", "json"]).stdout == before, "nothing was changed")

        #expect(try cli.run(db: db, ["unlink", "p0-0"]).stdout == "Unlinked p0-0 from p0-1, p0-2.\n")
        #expect(try shown(db, "p0-1", "linked") == "p0-2")
        let again = try cli.run(db: db, ["link", "--all-certain", "--dry-run"]).stdout
        #expect(!again.contains("p0-"), "p0-0 is kept apart for good: \(again)")
        #expect(try cli.run(db: db, ["query", "--unified", "--count", "--name", "anna"]).exitCode == 0)
    }

    @Test func copyMakesALinkedContactInTheOtherBook() throws {
        let db = try plantedDatabase()
        let persons = try cli.run(db: db, ["query", "--unified", "--count"]).stdout
        let copied = try cli.run(db: db, ["copy", "c1", "--to", "home"])
        let copy = try #require(copied.stdout.split(separator: "\t").last.map { String($0.dropLast()) })
        #expect(copied.exitCode == 0 && copied.stdout.hasPrefix("c1\t") && copy != "c1", "\(copied.stderr)")
        #expect(try shown(db, copy, "book") == "home" && shown(db, copy, "linked") == "c1")
        #expect(try cli.run(db: db, ["query", "--unified", "--count"]).stdout == persons)
        #expect(try cli.run(db: db, ["copy", "c1", "--to", "nope"]).exitCode == 64)
    }

    /// Apple's clients tell cards apart by X-ABUID: a copy carrying the
    /// original's would be taken for the same card.
    @Test func aCopyCarriesNoneOfTheOriginalsCardIdentity() throws {
        let db = try cli.makeEmptyDatabase("apple.sqlite", in: directory)
        #expect(try cli.run(db: db, ["book", "create", "work"]).exitCode == 0)
        let card = directory.write("apple.vcf", """
            BEGIN:VCARD\r
            VERSION:3.0\r
            UID:apple-1\r
            N:Appleseed;Johnny;;;\r
            X-ABUID:5E7A1C2B-1111-4222-8333-944445555666:ABPerson\r
            item1.X-ABUID:5E7A1C2B-1111-4222-8333-944445555666:ABPerson\r
            X-SHOE-SIZE:44\r
            END:VCARD\r

            """)
        #expect(try cli.run(db: db, ["import", card]).exitCode == 0)
        let copied = try cli.run(db: db, ["copy", "apple-1", "--to", "work"])
        let copy = try #require(copied.stdout.split(separator: "\t").last.map { String($0.dropLast()) })
        let extra = { (id: String) in
            let json = try cli.run(db: db, ["show", id, "--format", "json"]).stdoutData
            return (try JSONSerialization.jsonObject(with: json) as? [[String: Any]])?.first?["extra"] as? [String] ?? []
        }
        #expect(try extra(copy) == ["X-SHOE-SIZE:44"])
        #expect(try extra("apple-1").filter { $0.contains("X-ABUID") }.count == 2)
    }

    @Test func doctorFindsAPersonsKeptKeysOutOfStepAndReindexMendsThem() throws {
        let db = try cli.makeEmptyDatabase("kept.sqlite", in: directory)
        for book in ["work", "home"] { #expect(try cli.run(db: db, ["book", "create", book]).exitCode == 0) }
        let work = try cli.run(db: db, ["add", "--first-name", "Anna", "--book", "work", "--messenger", "telegram:@anna"])
        let home = try cli.run(db: db, ["add", "--first-name", "Anna", "--book", "home", "--email", "anna@example.org"])
        let ids = [work, home].map { $0.stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(try cli.run(db: db, ["link"] + ids).exitCode == 0)
        let both = ["query", "--unified", "--has", "telegram", "--has", "email", "--count"]
        #expect(try cli.run(db: db, both).stdout == "1\n")
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
        for tampering in ["UPDATE attributeCount SET personDelta = personDelta + 1 WHERE personDelta <> 0",
                          "UPDATE sectionCount SET nonHeads = 0",
                          "UPDATE contact SET personAttributes = attributes"] {
            try DatabaseQueue(path: db).write { db in try db.execute(sql: tampering) }
            #expect(try cli.run(db: db, ["doctor"]).exitCode != 0, "\(tampering)")
            #expect(try cli.run(db: db, ["reindex"]).exitCode == 0)
            #expect(try cli.run(db: db, ["doctor"]).exitCode == 0, "\(tampering)")
            #expect(try cli.run(db: db, both).stdout == "1\n")
            #expect(try cli.run(db: db, ["query", "--unified", "--count"]).stdout == "1\n")
        }
    }
}
