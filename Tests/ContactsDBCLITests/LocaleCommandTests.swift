import ContactsDBTestSupport
import Foundation
import Testing

/// `phone`, `settings regions` and the name filter, through the binary,
/// across processes sharing one database.
@Suite struct LocaleCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    @Test func phonePrintsWhatLibphonenumberMakesOfANumber() throws {
        let db = directory.path("phone.sqlite")
        let text = try cli.run(db: db, ["phone", "8 (912) 345-67-89"])
        #expect(text.exitCode == 0)
        #expect(text.lines == [
            "e164: +79123456789", "national: 8 (912) 345-67-89", "international: +7 912 345-67-89",
            "region: RU", "type: MOBILE", "valid: true",
        ])
        let json = try cli.run(db: db, ["phone", "010-1234-5678", "--format", "json"])
        let fields = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(fields?["e164"] as? String == "+821012345678" && fields?["region"] as? String == "KR")
        #expect(fields?["national"] as? String == "010-1234-5678" && fields?["valid"] as? Bool == true)
        let invalid = try cli.run(db: db, ["phone", "12"])
        #expect(invalid.exitCode == 0 && invalid.lines.last == "valid: false")
    }

    @Test func changingTheRegionsRenormalizesEveryNumber() throws {
        let db = try cli.makeEmptyDatabase("regions.sqlite", in: directory)
        let id = try cli.run(db: db, ["add", "--first-name", "Pat", "--phone", "(650) 253-0000"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try cli.run(db: db, ["settings", "regions"]).stdout == "RU,KR\n")
        // Not valid in Russia or Korea: digits only, shown as written.
        #expect(try cli.run(db: db, ["show", id]).stdout.contains("(650) 253-0000"))
        #expect(try cli.run(db: db, ["query", "--phone", "+1 650 253 0000", "--count"]).stdout == "0\n")

        let set = try cli.run(db: db, ["settings", "regions", "us,gb"])
        #expect(set.exitCode == 0 && set.stdout.contains("US,GB"), "\(set.stderr)")
        #expect(try cli.run(db: db, ["settings", "regions"]).stdout == "US,GB\n")
        #expect(try cli.run(db: db, ["query", "--phone", "+1 650 253 0000", "--count"]).stdout == "1\n")
        let json = try cli.run(db: db, ["show", id, "--format", "json"]).stdout
        #expect(json.contains(#""e164": "+16502530000""#), "\(json)")
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)

        let refused = try cli.run(db: db, ["settings", "regions", "US,XX"])
        #expect(refused.exitCode == 64 && refused.stderr.contains("XX"))
        #expect(try cli.run(db: db, ["settings", "regions"]).stdout == "US,GB\n")
    }

    @Test func theNameFilterFindsLettersICUHoldsEqual() throws {
        let db = try cli.makeEmptyDatabase("names.sqlite", in: directory)
        for name in ["Łukasz", "Ødegaard", "Æsop", "Strauß", "Йодов", "Иванов"] {
            #expect(try cli.run(db: db, ["add", "--last-name", name]).exitCode == 0)
        }
        for (typed, count) in [("lukasz", "1"), ("ODEG", "1"), ("ae", "1"), ("strauss", "1"), ("й", "1"), ("и", "1")] {
            #expect(try cli.run(db: db, ["query", "--name", typed, "--count"]).stdout == count + "\n", "\(typed)")
        }
    }
}
