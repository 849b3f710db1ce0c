import ContactsDBTestSupport
import Foundation
import Testing

/// `email`, as mutt's `query_command` and aerc's `address-book-cmd` run
/// it. mutt's manual (External Address Queries) asks for one status line,
/// which may be empty, then one line per address:
/// `<email address> <tab> <long name> <tab> <other info> <newline>`; aerc
/// reads tab-separated lines whose first field is the address and whose
/// second, if there, the name.
@Suite struct EmailCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    @Test func muttGetsAStatusLineThenOneLinePerAddress() throws {
        let db = try cli.makeDatabase(in: directory)
        let found = try cli.run(db: db, ["email", "durand"])
        #expect(found.exitCode == 0, "\(found.stderr)")
        #expect(found.stdoutData == Data("""
            2 addresses
            eloise.durand@example.fr\tÉloïse Durand\thome
            e.durand@atelier.example.fr\tÉloïse Durand\twork

            """.utf8))
        // Words as `query --text` takes them: each begins a word, in any field, case and accents aside.
        let one = try cli.run(db: db, ["email", "ELOISE", "atel"])
        #expect(one.stdout == "2 addresses\neloise.durand@example.fr\tÉloïse Durand\thome\ne.durand@atelier.example.fr\tÉloïse Durand\twork\n")
        let single = try cli.run(db: db, ["email", "lindenbaum"])
        #expect(single.stdout == "1 address\nanna.mueller@lindenbaum.de\tAnna Müller\twork\n")
    }

    @Test func aercGetsTheAddressesAlone() throws {
        let db = try cli.makeDatabase(in: directory)
        let found = try cli.run(db: db, ["email", "--format", "aerc", "lindenbaum"])
        #expect(found.exitCode == 0 && found.stdout == "anna.mueller@lindenbaum.de\tAnna Müller\twork\n")
    }

    /// The contacts in the default order, as `query --text` lists them.
    @Test func theContactsComeInTheOrderQueryGivesThem() throws {
        let db = try cli.makeDatabase(in: directory)
        let query = try cli.run(db: db, ["query", "--text", "example", "--has", "email", "--format", "json"])
        let contacts = try #require(try JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]])
        let expected = contacts.flatMap { contact in
            (contact["emails"] as! [[String: Any]]).map { "\($0["value"]!)\t\(contact["displayName"]!)\t\($0["type"]!)" }
        }
        let lines = try cli.run(db: db, ["email", "--format", "aerc", "example"]).lines
        #expect(lines == expected && lines.count >= 5)
    }

    @Test func noMatchSaysSoAndExitsOne() throws {
        let db = try cli.makeDatabase(in: directory)
        let mutt = try cli.run(db: db, ["email", "zzyzx"])
        #expect(mutt.exitCode == 1 && mutt.stdout == "No addresses match \"zzyzx\".\n" && mutt.stderr.isEmpty)
        let aerc = try cli.run(db: db, ["email", "--format", "aerc", "zzyzx"])
        #expect(aerc.exitCode == 1 && aerc.stdout.isEmpty)
        // A contact without an email is no match either.
        #expect(try cli.run(db: db, ["email", "zoë"]).exitCode == 1)
        #expect(try cli.run(db: db, ["email", "--", "-"]).exitCode == 64)
    }

    /// An imported name may hold a tab or a line break; the line keeps its
    /// three fields.
    @Test func aTabOrLineBreakInANameCannotSplitTheLine() throws {
        let db = try cli.makeEmptyDatabase("empty.sqlite", in: directory)
        let file = directory.write("odd.json", #"[{"firstName": "Tab\tand\nbreak\u2028line", "emails": [{"type": "work", "value": "odd@example.org"}]}]"#)
        #expect(try cli.run(db: db, ["import", file]).exitCode == 0)
        let found = try cli.run(db: db, ["email", "odd"])
        #expect(found.stdout == "1 address\nodd@example.org\tTab and break line\twork\n", "\(found.stdout)")
    }
}
