import ContactsDBTestSupport
import Foundation
import Testing

/// `import --existing fail|update|skip`: a file imported again, each step
/// a process of its own against one database file.
@Suite struct ReimportCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    /// The changes since `token` as (id, kind), and the new token.
    func changes(_ db: String, since token: String?) throws -> (changes: [String], token: String) {
        let result = try cli.run(db: db, ["changes", "--format", "json"] + (token.map { ["--since", $0] } ?? []))
        #expect(result.exitCode == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let changes = (object["changes"] as? [[String: Any]] ?? []).map { "\($0["id"]!) \($0["kind"]!)" }
        return (changes.sorted(), try #require(object["token"] as? String))
    }

    /// Each contact's id with its revision, in the default order.
    func revisions(_ db: String) throws -> [(id: String, revision: Int)] {
        let result = try cli.run(db: db, ["query", "--format", "json"])
        let contacts = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return contacts.map { ($0["id"] as! String, $0["revision"] as! Int) }
    }

    /// Every contact exported to `all.FORMAT`; returns its path.
    func export(_ db: String, _ format: String) throws -> String {
        let exported = try cli.run(db: db, ["export", "--format", format])
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        return directory.write("all.\(format)", exported.stdout)
    }

    @Test(arguments: ["json", "vcard"])
    func aSecondImportFailsOnTheFirstTakenIdNamingTheOption(_ format: String) throws {
        let db = try cli.makeDatabase(in: directory)
        let file = try export(db, format)
        let before = try changes(db, since: nil).token
        let again = try cli.run(db: db, ["import", file])
        #expect(again.exitCode == 65)
        // The export's first contact, in the default order.
        let first = try #require(try revisions(db).first?.id)
        #expect(again.stderr.contains("\"\(first)\" is already here"), "\(again.stderr)")
        #expect(again.stderr.contains("--existing update") && again.stderr.contains("--existing skip"), "\(again.stderr)")
        #expect(try changes(db, since: before).changes.isEmpty)
        #expect(try cli.count(db) == 10)
    }

    /// An unchanged export imported again with `update` writes nothing,
    /// in either format: no revision moves and `changes` sees nothing.
    @Test(arguments: ["json", "vcard"])
    func anUnchangedExportUpdatesNothing(_ format: String) throws {
        let db = try cli.makeDatabase(in: directory)
        #expect(try cli.run(db: db, ["favorite", "seed-ivan-petrov"]).exitCode == 0)
        #expect(try cli.run(db: db, ["group", "create", "Family"]).exitCode == 0)
        #expect(try cli.run(db: db, ["group", "add", "Family", "seed-kim-minji"]).exitCode == 0)
        let file = try export(db, format)
        let (token, before) = (try changes(db, since: nil).token, try revisions(db))
        let imported = try cli.run(db: db, ["import", file, "--existing", "update"])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 10 contacts from all.\(format): 0 added, 0 updated, 10 unchanged, 0 skipped.\n")
        #expect(try changes(db, since: token).changes == [])
        #expect(try revisions(db).map { "\($0)" } == before.map { "\($0)" })
    }

    @Test func updateReplacesWhatChangedAndAddsTheRest() throws {
        let db = try cli.makeDatabase(in: directory)
        let exported = try cli.run(db: db, ["export"])
        var contacts = try #require(try JSONSerialization.jsonObject(with: Data(exported.stdout.utf8)) as? [[String: Any]])
        let edited = try #require(contacts.firstIndex { $0["id"] as? String == "seed-ivan-petrov" })
        contacts[edited]["company"] = "Ромашка"
        contacts[edited]["phones"] = [["type": "mobile", "value": "+7 912 000-00-01"]]
        contacts.append(["id": "new-one", "firstName": "Vera"])
        let file = directory.write("edited.json", String(decoding: try JSONSerialization.data(withJSONObject: contacts), as: UTF8.self))
        let (token, before) = (try changes(db, since: nil).token, try revisions(db))

        let updated = try cli.run(db: db, ["import", file, "--existing", "update"])
        #expect(updated.exitCode == 0, "\(updated.stderr)")
        #expect(updated.stdout == "Imported 11 contacts from edited.json: 1 added, 1 updated, 9 unchanged, 0 skipped.\n")
        let after = try changes(db, since: token)
        #expect(after.changes == ["new-one added", "seed-ivan-petrov updated"])
        let shown = try cli.run(db: db, ["show", "seed-ivan-petrov", "--format", "json"]).stdout
        #expect(shown.contains("Ромашка") && shown.contains("+79120000001") && !shown.contains("+7 912 345-67-89"), "\(shown)")
        let others = { (list: [(id: String, revision: Int)]) in
            list.filter { !["seed-ivan-petrov", "new-one"].contains($0.id) }.map { "\($0)" }
        }
        #expect(others(try revisions(db)) == others(before))

        // Once more, in a new process: everything is as the file says already.
        let again = try cli.run(db: db, ["import", file, "--existing", "update"])
        #expect(again.stdout == "Imported 11 contacts from edited.json: 0 added, 0 updated, 11 unchanged, 0 skipped.\n")
        #expect(try changes(db, since: after.token).changes == [])
    }

    @Test func skipLeavesTheContactsHereAsTheyAre() throws {
        let db = try cli.makeDatabase(in: directory)
        let file = directory.write("two.json", """
            [{"id": "seed-ivan-petrov", "firstName": "Someone else"}, {"id": "new-one", "firstName": "Vera"}]
            """)
        let token = try changes(db, since: nil).token
        let skipped = try cli.run(db: db, ["import", file, "--existing", "skip"])
        #expect(skipped.exitCode == 0, "\(skipped.stderr)")
        #expect(skipped.stdout == "Imported 2 contacts from two.json: 1 added, 0 updated, 0 unchanged, 1 skipped.\n")
        #expect(try changes(db, since: token).changes == ["new-one added"])
        #expect(try cli.run(db: db, ["show", "seed-ivan-petrov", "--format", "json"]).stdout.contains("Иван"))
    }

    /// An id the file gives twice: the second record updates the contact
    /// the first one added.
    /// Google's and Outlook's CSV have no id column: a row is the contact
    /// `duplicates` would call the same person for certain.
    @Test(arguments: ["google", "outlook"])
    func aCSVWithoutIdsFindsItsContactsAsCertainDuplicates(_ style: String) throws {
        let db = try cli.makeDatabase(in: directory)
        let exported = try cli.run(db: db, ["export", "--format", "csv", "--csv-style", style])
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        // Zoë O'Connor holds no phone, email or handle: nothing can find her.
        let rows = exported.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty && !$0.contains("Connor") }
        // One contact edited (another postal code), one added, and one who
        // shares Ivan's email under another name, who is someone else.
        let edited = rows.map { $0.contains("ivan.petrov@example.ru") ? $0.replacingOccurrences(of: "101000", with: "101001") : $0 }
        let header = rows[0].components(separatedBy: ",")
        func row(_ cells: [String: String]) -> String { header.map { cells[$0] ?? "" }.joined(separator: ",") }
        let email = style == "google" ? "E-mail 1 - Value" : "E-mail Address"
        let added = [row(["First Name": "Nadia", "Last Name": "Novak", email: "nadia@example.org"]),
                     row(["First Name": "Boris", "Last Name": "Orlov", email: "ivan.petrov@example.ru"])]
        let file = directory.write("\(style).csv", (edited + added).joined(separator: "\r\n") + "\r\n")

        let skipped = try cli.run(db: db, ["import", file, "--existing", "skip"])
        #expect(skipped.exitCode == 0, "\(skipped.stderr)")
        #expect(skipped.stdout == "Imported 11 contacts from \(style).csv: 2 added, 0 updated, 0 unchanged, 9 skipped.\n",
                "\(skipped.stdout)")
        #expect(skipped.stderr.contains("Found 9 records without an id"), "\(skipped.stderr)")
        #expect(try cli.run(db: db, ["query", "--count"]).stdout == "12\n")
        #expect(!(try cli.run(db: db, ["show", "seed-ivan-petrov"]).stdout.contains("101001")))

        // Again, updating: every row is here now, Boris Orlov and Nadia too.
        let updated = try cli.run(db: db, ["import", file, "--existing", "update"])
        #expect(updated.exitCode == 0, "\(updated.stderr)")
        #expect(updated.stdout.contains(": 0 added, ") && updated.stderr.contains("Found 11 records"),
                "\(updated.stdout)\(updated.stderr)")
        #expect(try cli.run(db: db, ["show", "seed-ivan-petrov"]).stdout.contains("101001"))
        #expect(try cli.run(db: db, ["query", "--count"]).stdout == "12\n")
    }

    @Test func anIdGivenTwiceInTheFileUpdatesItsFirstRecord() throws {
        let db = try cli.makeEmptyDatabase("empty.sqlite", in: directory)
        let file = directory.write("twice.json", """
            [{"id": "x", "firstName": "First"}, {"id": "x", "firstName": "Second"}]
            """)
        let imported = try cli.run(db: db, ["import", file, "--existing", "update"])
        #expect(imported.stdout == "Imported 2 contacts from twice.json: 1 added, 1 updated, 0 unchanged, 0 skipped.\n",
                "\(imported.stderr)")
        #expect(try cli.run(db: db, ["show", "x", "--format", "json"]).stdout.contains("Second"))
        #expect(try cli.run(db: db, ["import", file, "--existing", "bogus"]).exitCode == 64)
    }
}
