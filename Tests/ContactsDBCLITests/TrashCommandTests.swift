import CVips
import ContactsDB
@testable import ContactsDBSynthetic
import ContactsDBTestSupport
import Foundation
import Testing

/// `trash`, `restore` and `settings trash-days` (docs/cli.md, "Nothing
/// lost, even by mistake"), each command a process of its own against one
/// database file.
@Suite struct TrashCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    func json(_ result: CLIRunner.Result) throws -> Any {
        try JSONSerialization.jsonObject(with: result.stdoutData)
    }

    func succeeds(_ db: String, _ arguments: [String]) throws -> CLIRunner.Result {
        let result = try cli.run(db: db, arguments)
        #expect(result.exitCode == 0, "\(arguments): \(result.stderr)")
        return result
    }

    /// The seeded database with Anna given a photo, a group, the second
    /// place among the favorites and a link to a card of another book.
    func databaseWithAWholeContact() throws -> String {
        let db = try cli.makeDatabase(in: directory)
        let photo = directory.path("anna.jpg")
        try PhotoImage.sample(width: 640, height: 480, format: CVIPS_JPEG).write(to: URL(fileURLWithPath: photo))
        _ = try succeeds(db, ["photo", "set", "seed-anna-muller", photo])
        _ = try succeeds(db, ["group", "create", "Team"])
        _ = try succeeds(db, ["group", "add", "Team", "seed-anna-muller", "seed-acme"])
        _ = try succeeds(db, ["favorite", "seed-acme", "seed-anna-muller", "seed-kim-minji"])
        _ = try succeeds(db, ["book", "create", "work"])
        let work = try directory.write("work.json", #"[{"id": "anna-at-work", "firstName": "Anna", "lastName": "Müller"}]"#)
        _ = try succeeds(db, ["import", work, "--book", "work"])
        _ = try succeeds(db, ["link", "seed-anna-muller", "anna-at-work"])
        return db
    }

    @Test func aDeletedContactComesBackAsItWas() throws {
        let db = try databaseWithAWholeContact()
        let export = try succeeds(db, ["export", "--format", "vcard"]).stdoutData
        let favorites = try succeeds(db, ["favorites"]).stdout
        let groups = try succeeds(db, ["group", "list"]).stdout
        let start = try cli.changes(db).token

        _ = try succeeds(db, ["delete", "seed-anna-muller"])
        #expect(try cli.run(db: db, ["show", "seed-anna-muller"]).exitCode == 1)
        #expect(try succeeds(db, ["export", "--format", "vcard"]).stdoutData != export)
        let listed = try #require(try json(succeeds(db, ["trash", "--format", "json"])) as? [[String: Any]])
        #expect(listed.count == 1)
        #expect(listed.first?["id"] as? String == "seed-anna-muller" && listed.first?["name"] as? String == "Anna Müller")
        #expect(listed.first?["book"] as? String == "local" && listed.first?["by"] as? String == "delete")
        #expect(Set(listed.first?.keys.map { $0 } ?? []) == ["id", "name", "book", "deletedAt", "by"])
        let shown = try #require(try json(succeeds(db, ["trash", "show", "seed-anna-muller"])) as? [String: Any])
        #expect(shown["groups"] as? [String] == ["Team"] && shown["favorite"] as? Bool == true)
        #expect(try succeeds(db, ["trash", "show", "seed-anna-muller", "--format", "vcard"]).stdout.contains("PHOTO"))

        let restored = try succeeds(db, ["restore", "seed-anna-muller"])
        #expect(restored.stdout == "Restored 1 contact: seed-anna-muller.\n")
        #expect(try succeeds(db, ["export", "--format", "vcard"]).stdoutData == export)
        #expect(try succeeds(db, ["favorites"]).stdout == favorites)
        #expect(try succeeds(db, ["group", "list"]).stdout == groups)
        let linked = try #require(try json(succeeds(db, ["show", "seed-anna-muller", "--format", "ndjson"])) as? [String: Any])
        #expect(linked["linked"] as? [String] == ["anna-at-work"])
        #expect(try succeeds(db, ["trash"]).stdout == "The trash is empty.\n")
        // A contact the reader saw deleted comes back as added.
        let kinds = try cli.changes(db, since: start).changes.map { $0["kind"] as? String }
        #expect(kinds == ["added"])
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
    }

    @Test func aRestoreOfAnIDInUseAgainIsRefusedUnlessAsNew() throws {
        let db = try cli.makeDatabase(in: directory)
        _ = try succeeds(db, ["delete", "seed-acme", "seed-anna-muller"])
        try cli.importContacts(ids: ["seed-acme"], into: db, in: directory)
        let before = try succeeds(db, ["export"]).stdoutData

        let refused = try cli.run(db: db, ["restore", "seed-anna-muller", "seed-acme"])
        #expect(refused.exitCode == 1)
        #expect(refused.stderr.contains("\"seed-acme\"") && refused.stderr.contains("--as-new"))
        #expect(try succeeds(db, ["export"]).stdoutData == before, "nothing changed")
        #expect((try json(succeeds(db, ["trash", "--format", "json"])) as? [Any])?.count == 2)

        let asNew = try succeeds(db, ["restore", "seed-acme", "--as-new"])
        let newID = try #require(asNew.stdout.split(separator: ":").last?.trimmingCharacters(in: .init(charactersIn: " .\n")))
        #expect(newID != "seed-acme" && !newID.isEmpty)
        let card = try succeeds(db, ["show", newID, "--format", "vcard"]).stdout
        #expect(card.contains("ORG:Acme Corporation") && !card.contains("UID:seed-acme"))
        #expect(try cli.count(db) == 10)
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
    }

    @Test func unknownIDsAreNamedAndNothingIsRestored() throws {
        let db = try cli.makeDatabase(in: directory)
        _ = try succeeds(db, ["delete", "seed-acme"])
        let unknown = try cli.run(db: db, ["restore", "seed-acme", "nobody", "nor-this"])
        #expect(unknown.exitCode == 1 && unknown.stderr.contains("\"nobody\", \"nor-this\""))
        #expect(try cli.count(db) == 9)
        #expect(try cli.run(db: db, ["trash", "show", "nobody"]).exitCode == 1)
    }

    @Test func theTrashKeepsWhatItIsToldToAndEmpties() throws {
        let db = try cli.makeDatabase(in: directory)
        #expect(try succeeds(db, ["settings", "trash-days"]).stdout == "30\n")
        _ = try succeeds(db, ["delete", "seed-acme"])
        _ = try succeeds(db, ["delete", "seed-anna-muller"])
        let table = try succeeds(db, ["trash"]).lines
        #expect(table.count == 3 && table[1].hasPrefix("seed-anna-muller") && table[2].hasPrefix("seed-acme"))
        #expect(try succeeds(db, ["trash", "--format", "csv"]).stdout.hasPrefix("id,name,book,deletedAt,by\r\nseed-anna-muller,"))
        #expect(try succeeds(db, ["trash", "--format", "ndjson"]).lines.count == 2)
        #expect(try succeeds(db, ["trash", "--book", "nowhere", "--format", "ndjson"]).stdout.isEmpty)

        #expect(try succeeds(db, ["trash", "empty", "--before", "2000-01-01"]).stdout == "Forgot 0 deleted contacts.\n")
        #expect(try succeeds(db, ["compact", "--changes-before", "2999-01-01"]).exitCode == 0)
        #expect(try succeeds(db, ["trash"]).stdout == "The trash is empty.\n")

        _ = try succeeds(db, ["delete", "seed-kim-minji"])
        #expect(try succeeds(db, ["trash", "empty"]).stdout == "Forgot 1 deleted contact.\n")

        _ = try succeeds(db, ["delete", "seed-john-smith"])
        _ = try succeeds(db, ["settings", "trash-days", "0"])
        _ = try succeeds(db, ["delete", "seed-zoe-oconnor"])
        let empty = try succeeds(db, ["trash"])
        #expect(empty.stdout == "The trash is empty.\n" && empty.stderr.contains("keeps nothing"))
        #expect(try cli.run(db: db, ["restore", "seed-zoe-oconnor"]).exitCode == 1)
        #expect(try cli.run(db: db, ["settings", "trash-days", "-1"]).exitCode == 64)
    }

    /// `restore` of a thousand contacts killed with SIGKILL at random
    /// moments: the next open finds every one back and out of the trash,
    /// or none, and `doctor` clean.
    @Test func aKilledRestoreLeavesAllOrNothing() throws {
        let db = try cli.makeEmptyDatabase("killed.sqlite", in: directory)
        let count = 1000
        _ = try succeeds(db, ["import", directory.write("batch.json", try ContactsFixture.json(count: count))])
        let ids = try succeeds(db, ["query", "--format", "ndjson"]).lines.compactMap {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String
        }
        #expect(ids.count == count)
        var random = SplitMix64(seed: 23)
        var killedMidway = 0
        for _ in 0..<6 {
            _ = try succeeds(db, ["delete"] + ids)
            let completed = try ReliabilityTests.run(["--db", db, "restore"] + ids, killedAfter: 50_000 + random.below(5_000_000))
            let (found, trashed) = (try cli.count(db), try succeeds(db, ["trash", "--format", "ndjson"]).lines.count)
            #expect(found == count && trashed == 0 || found == 0 && trashed == count, "restored \(found), trash holds \(trashed)")
            #expect(!completed || found == count)
            if found == 0 {
                killedMidway += 1
                _ = try succeeds(db, ["restore"] + ids)
            }
            #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
        }
        print("killed restore of \(count) contacts: 6 trials, \(killedMidway) killed before the commit")
    }
}
