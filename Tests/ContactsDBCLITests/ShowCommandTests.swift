import ContactsDBTestSupport
import Foundation
import Testing

/// `show` gives every field the card holds, in each of its formats.
@Suite struct ShowCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    static let card = """
        BEGIN:VCARD\r
        VERSION:4.0\r
        UID:whole\r
        FN:Inès Laurent\r
        N:Laurent;Inès;Marie;Dr.;\r
        NICKNAME:Nessa\r
        ORG:Lindenbaum;Research\r
        TITLE:Chemist\r
        BDAY:--0612\r
        ANNIVERSARY:20150905\r
        NOTE:First line\\nsecond line\r
        URL;TYPE=work:https://lindenbaum.example/ines\r
        RELATED;TYPE=spouse;VALUE=text:Aoife\r
        X-SOCIALPROFILE;TYPE=mastodon:https://social.example/@ines\r
        X-SHOE-SIZE:39\r
        CATEGORIES:Chemists,Friends\r
        END:VCARD\r

        """

    @Test func theTableShowsEveryFieldOfTheCard() throws {
        let db = try cli.makeEmptyDatabase("whole.sqlite", in: directory)
        #expect(try cli.run(db: db, ["import", directory.write("whole.vcf", Self.card)]).exitCode == 0)
        #expect(try cli.run(db: db, ["favorite", "whole"]).exitCode == 0)
        let shown = try cli.run(db: db, ["show", "whole"]).stdout
        for expected in ["middle name:", "Marie", "name prefix:", "Dr.", "nickname:", "Nessa", "department:", "Research",
                         "job title:", "Chemist", "birthday:", "--06-12", "date (anniversary):", "2015-09-05",
                         "url (work):", "https://lindenbaum.example/ines", "relation (spouse):", "Aoife",
                         "social profile:", "mastodon", "extra:", "X-SHOE-SIZE:39", "groups:", "Chemists, Friends",
                         "favorite:", "yes", "note:", "First line\n"] {
            #expect(shown.contains(expected), "\(expected) is missing from:\n\(shown)")
        }
        // The note's second line starts under its first.
        let lines = shown.split(separator: "\n")
        let note = try #require(lines.firstIndex { $0.contains("note:") })
        #expect(lines[note + 1].trimmingCharacters(in: .whitespaces) == "second line")
        #expect(lines[note].firstRange(of: "First")?.lowerBound.utf16Offset(in: lines[note])
                == lines[note + 1].firstRange(of: "second")?.lowerBound.utf16Offset(in: lines[note + 1]))
    }

    @Test func jsonListsTheLinkedIdsAndImportsAgain() throws {
        let db = try cli.makeEmptyDatabase("linked.sqlite", in: directory)
        #expect(try cli.run(db: db, ["book", "create", "work"]).exitCode == 0)
        let home = try cli.run(db: db, ["add", "--first-name", "Anna", "--email", "anna@example.org"]).stdout
        let work = try cli.run(db: db, ["add", "--book", "work", "--first-name", "Anna", "--email", "anna@work.example"]).stdout
        let (a, b) = (home.trimmingCharacters(in: .whitespacesAndNewlines), work.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(try cli.run(db: db, ["link", a, b]).exitCode == 0)
        let json = try cli.run(db: db, ["show", a, "--format", "json"]).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]).first
        #expect(object?["linked"] as? [String] == [b])

        let copy = try cli.makeEmptyDatabase("copy.sqlite", in: directory)
        let imported = try cli.run(db: copy, ["import", directory.write("shown.json", json)])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
    }
}
