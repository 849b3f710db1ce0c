import ContactsDBTestSupport
import Foundation
import Testing

/// `import` and `export` in vCard and CSV, through the binary.
@Suite struct InterchangeCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    func withoutTimestamps(_ text: String) -> String { ContactsFixture.withoutTimestamps(text) }

    @Test(arguments: ["4.0", "3.0"])
    func aDirectoryOfCardsRoundTrips(_ version: String) throws {
        let db = directory.path("source.sqlite")
        #expect(try cli.run(db: db, ["favorite", "seed-ivan-petrov"]).exitCode == 0)
        #expect(try cli.run(db: db, ["group", "create", "Family"]).exitCode == 0)
        #expect(try cli.run(db: db, ["group", "add", "Family", "seed-ivan-petrov", "seed-kim-minji"]).exitCode == 0)
        let cards = directory.path("cards")
        #expect(try cli.run(db: db, ["export", "--format", "vcard", "--vcard-version", version, "--directory", cards]).exitCode == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cards).filter { $0.hasSuffix(".vcf") }.count == 10)

        let copy = directory.path("copy.sqlite")
        #expect(try cli.run(db: copy, ["init", "--no-seed"]).exitCode == 0)
        let imported = try cli.run(db: copy, ["import", cards])
        #expect(imported.exitCode == 0 && imported.stdout == "Imported 10 contacts from 10 files.\n", "\(imported.stderr)")
        #expect(withoutTimestamps(try cli.run(db: copy, ["export"]).stdout) == withoutTimestamps(try cli.run(db: db, ["export"]).stdout))
    }

    /// Ids that one simple rendering would give one file name (`a/b`, `a_b`,
    /// `a.b`), or that differ only in case, each get a card of their own,
    /// holding its UID as stored.
    @Test func everyIdGetsACardFileOfItsOwn() throws {
        let db = try cli.makeEmptyDatabase("names.sqlite", in: directory)
        let ids = ["a/b", "a_b", "a.b", "a b", "Anna", "anna", "ANNA", "x-0123456789abcdef", "seed-plain",
                   "urn:uuid:5E1F2B9C-8D1A-4C55-9E43-1B2A3C4D5E6F", "ü", "u", "../../escape"]
        try cli.importContacts(ids: ids, into: db, in: directory)
        let cards = directory.path("named-cards")
        #expect(try cli.run(db: db, ["export", "--format", "vcard", "--directory", cards]).exitCode == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: cards)
        #expect(files.count == ids.count, "\(files.sorted())")
        // No two names differ only in case.
        #expect(Set(files.map { $0.lowercased() }).count == ids.count)
        let uids = try files.map { file in
            try String(contentsOfFile: cards + "/" + file, encoding: .utf8).split(separator: "\r\n")
                .first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) } ?? ""
        }
        #expect(Set(uids) == Set(ids))
        #expect(files.contains("seed-plain.vcf") && files.contains("anna.vcf"))
    }

    @Test func theFormatIsReadFromTheContentNotTheName() throws {
        let db = try cli.makeEmptyDatabase("content.sqlite", in: directory)
        let card = directory.write("contacts.txt", "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\nX-FOO:1990-01-01\r\nEND:VCARD\r\n")
        let result = try cli.run(db: db, ["import", card])
        #expect(result.exitCode == 0)
        #expect(result.stderr.contains("Kept as extra properties, written back on export: X-FOO ×1."), "\(result.stderr)")
        #expect(try cli.run(db: db, ["query", "--name", "jane", "--count"]).stdout == "1\n")
        let bad = directory.write("bad.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nN:;;;;\r\nUID:x\r\nEND:VCARD\r\n")
        let refused = try cli.run(db: db, ["import", bad])
        #expect(refused.exitCode == 65 && refused.stderr.hasPrefix("Error: bad.vcf card 1 (line 1): the record holds nothing"),
                "\(refused.stderr)")
        let skipped = try cli.run(db: db, ["import", bad, "--skip-invalid"])
        #expect(skipped.exitCode == 0 && skipped.stdout.contains("skipped 1 record."), "\(skipped.stdout)")
    }

    /// A file cut short is broken, not a record: the error says where the
    /// file ends, and nothing is imported.
    @Test func aTruncatedFileIsReportedAsEndingEarly() throws {
        let db = try cli.makeEmptyDatabase("truncated.sqlite", in: directory)
        let file = directory.write("cut.json", "[{\"firstName\": \"Whole\"},\n {\"firstName\": \"Broken\", \"lastName\": ")
        let result = try cli.run(db: db, ["import", file])
        #expect(result.exitCode == 65)
        #expect(result.stderr.hasPrefix("Error: cut.json:2:38: not valid JSON: the file ends early"), "\(result.stderr)")
        let stray = directory.write("stray.json", "[{\"firstName\": x}]")
        #expect(try cli.run(db: db, ["import", stray]).stderr.contains("stray.json:1:16: not valid JSON: expected a JSON value but found \"x\""))
        #expect(try cli.count(db) == 0)
    }

    @Test func csvHasAHeaderNumberedColumnsAndQuoting() throws {
        let db = directory.path("csv.sqlite")
        #expect(try cli.run(db: db, ["add", "--company", "Smith, \"Jones\" & Co.", "--phone", "+1 415 555 0100",
                                     "--phone", "work:+1 415 555 0101"]).exitCode == 0)
        let csv = try cli.run(db: db, ["export", "--format", "csv"]).stdout
        let rows = csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows.count == 12)
        #expect(rows[0].hasPrefix("id,kind,firstName,lastName,company,age,favorite,groups,displayName,sectionKey,namePrefix,"))
        #expect(rows[0].contains(",note,hasPhoto,phone1Type,phone1Value,phone1E164,phone1Preferred,phone2Type"))
        #expect(csv.contains(#",individual,,,"Smith, ""Jones"" & Co.",,false,,"Smith, ""Jones"" & Co.",S,,,,,,,,,,,,,,false,mobile,+1 415 555 0100,+14155550100,,work,+1 415 555 0101,+14155550101,,"#))
    }
}
