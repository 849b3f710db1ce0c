import ContactsDBTestSupport
import Foundation
import Testing

/// `export` of a selection (`query`'s filters, `--id`) and `show --format
/// vcard`, through the binary.
@Suite struct SelectionExportCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    func ids(ofJSON text: String) throws -> [String] {
        let contacts = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        return contacts.map { $0["id"] as! String }
    }

    func uids(ofCards text: String) -> [String] {
        text.split(separator: "\r\n").filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
    }

    @Test func idsChooseTheContactsInTheDefaultOrder() throws {
        let db = try cli.makeDatabase(in: directory)
        let exported = try cli.run(db: db, ["export", "--id", "seed-zoe-oconnor", "--id", "seed-anna-muller"])
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        #expect(try ids(ofJSON: exported.stdout) == ["seed-anna-muller", "seed-zoe-oconnor"])
        let unknown = try cli.run(db: db, ["export", "--id", "seed-anna-muller", "--id", "nobody"])
        #expect(unknown.exitCode == 1 && unknown.stderr.contains("\"nobody\"") && unknown.stdout.isEmpty)
    }

    @Test func queryFiltersChooseTheContactsInEveryFormat() throws {
        let db = try cli.makeDatabase(in: directory)
        #expect(try cli.run(db: db, ["group", "create", "Family"]).exitCode == 0)
        #expect(try cli.run(db: db, ["group", "add", "Family", "seed-ivan-petrov", "seed-kim-minji"]).exitCode == 0)
        let cards = try cli.run(db: db, ["export", "--group", "Family", "--format", "vcard", "--vcard-version", "3.0"])
        #expect(Set(uids(ofCards: cards.stdout)) == ["seed-ivan-petrov", "seed-kim-minji"], "\(cards.stderr)")
        let csv = try cli.run(db: db, ["export", "--name", "ива", "--format", "csv"])
        let rows = csv.stdout.split(separator: "\r\n").dropFirst().map { $0.prefix { $0 != "," } }
        #expect(rows == ["seed-olga-ivanova", "seed-ivan-petrov"])
        // Filters and ids together: both must hold.
        let both = try cli.run(db: db, ["export", "--format", "ndjson", "--has", "telegram", "--id", "seed-kim-minji",
                                        "--id", "seed-ivan-petrov"])
        #expect(both.lines.count == 1 && both.stdout.contains("seed-ivan-petrov"))
        let folder = directory.path("family")
        #expect(try cli.run(db: db, ["export", "--format", "vcard", "--group", "Family", "--directory", folder]).exitCode == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["seed-ivan-petrov.vcf", "seed-kim-minji.vcf"])
    }

    /// The card `show` prints is the one `export` writes, and it imports
    /// into another database as the same contact.
    @Test(arguments: ["3.0", "4.0"])
    func showPrintsTheContactsCard(_ version: String) throws {
        let db = try cli.makeDatabase(in: directory)
        let shown = try cli.run(db: db, ["show", "seed-ivan-petrov", "--format", "vcard", "--vcard-version", version])
        #expect(shown.exitCode == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("BEGIN:VCARD\r\nVERSION:\(version)\r\n") && uids(ofCards: shown.stdout) == ["seed-ivan-petrov"])
        let exported = try cli.run(db: db, ["export", "--id", "seed-ivan-petrov", "--format", "vcard", "--vcard-version", version])
        #expect(shown.stdout == exported.stdout)

        let copy = try cli.makeEmptyDatabase("copy.sqlite", in: directory)
        #expect(try cli.run(db: copy, ["import", directory.write("ivan.vcf", shown.stdout)]).exitCode == 0)
        let json = { (db: String) in
            ContactsFixture.withoutTimestamps(try cli.run(db: db, ["show", "seed-ivan-petrov", "--format", "json"]).stdout)
        }
        #expect(try json(copy) == json(db))
    }

    @Test func showRefusesAVersionWithoutTheVCardFormat() throws {
        let db = try cli.makeDatabase(in: directory)
        #expect(try cli.run(db: db, ["show", "seed-ivan-petrov", "--vcard-version", "3.0"]).exitCode == 64)
        #expect(try cli.run(db: db, ["show", "nobody", "--format", "vcard"]).exitCode == 1)
        let v4 = try cli.run(db: db, ["show", "seed-ivan-petrov", "--format", "vcard"]).stdout
        #expect(v4.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"))
    }
}
