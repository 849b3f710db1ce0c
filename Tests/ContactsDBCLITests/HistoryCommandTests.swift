import ContactsDB
import ContactsDBTestSupport
import Foundation
import GRDB
import Testing

/// `history`, `show --revision` and `restore --revision` (docs/cli.md,
/// "Nothing lost, even by mistake"), each command a process of its own
/// against one database file.
@Suite struct HistoryCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    func succeeds(_ db: String, _ arguments: [String]) throws -> CLIRunner.Result {
        let result = try cli.run(db: db, arguments)
        #expect(result.exitCode == 0, "\(arguments): \(result.stderr)")
        return result
    }

    func history(_ db: String, _ id: String) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: succeeds(db, ["history", id, "--format", "json"]).stdoutData) as? [[String: Any]] ?? []
    }

    func contact(_ db: String, _ arguments: [String]) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: succeeds(db, ["show"] + arguments + ["--format", "ndjson"]).stdoutData)
            as? [String: Any] ?? [:]
    }

    /// The seeded database with three updates of Anna: her age, a note,
    /// her company.
    func updatedThreeTimes() throws -> String {
        let db = try cli.makeDatabase(in: directory)
        _ = try succeeds(db, ["update", "seed-anna-muller", "--age", "35"])
        _ = try succeeds(db, ["update", "seed-anna-muller", "--note", "Met in Berlin"])
        _ = try succeeds(db, ["update", "seed-anna-muller", "--company", "Lindenbaum AG"])
        return db
    }

    @Test func theHistoryListsEachUpdateNewestFirst() throws {
        let db = try updatedThreeTimes()
        let versions = try history(db, "seed-anna-muller")
        #expect(versions.count == 4)
        #expect(versions.map { $0["fields"] as? [String] ?? [] }.prefix(3) == [["company"], ["note"], ["age"]])
        #expect(versions.prefix(3).allSatisfy { $0["by"] as? String == "update" })
        #expect(Set(versions[0].keys) == ["revision", "at", "by", "fields"])
        let revisions = versions.map { $0["revision"] as? Int ?? 0 }
        #expect(revisions == revisions.sorted(by: >) && Set(revisions).count == 4)
        #expect(revisions[0] == (try contact(db, ["seed-anna-muller"]))["revision"] as? Int)
        // The version the seed added changed every field it holds.
        #expect((versions[3]["fields"] as? [String] ?? []).contains("firstName"))

        let table = try succeeds(db, ["history", "seed-anna-muller"]).lines
        #expect(table.count == 5 && table[0].hasPrefix("REVISION") && table[1].contains("company"))
    }

    @Test func showRevisionShowsTheContactAsItWas() throws {
        let db = try updatedThreeTimes()
        let revisions = try history(db, "seed-anna-muller").map { $0["revision"] as? Int ?? 0 }
        let first = try contact(db, ["seed-anna-muller", "--revision", String(revisions[3])])
        #expect(first["age"] as? Int == 34 && first["company"] as? String == "Lindenbaum GmbH" && first["note"] == nil)
        #expect(first["revision"] as? Int == revisions[3])
        let second = try contact(db, ["seed-anna-muller", "--revision", String(revisions[2])])
        #expect(second["age"] as? Int == 35 && second["company"] as? String == "Lindenbaum GmbH" && second["note"] == nil)
        let third = try contact(db, ["seed-anna-muller", "--revision", String(revisions[1])])
        #expect(third["note"] as? String == "Met in Berlin" && third["company"] as? String == "Lindenbaum GmbH")
        #expect((third["phones"] as? [Any])?.count == 2)

        let missing = try cli.run(db: db, ["show", "seed-anna-muller", "--revision", "99999"])
        #expect(missing.exitCode == 1)
        #expect(missing.stderr.contains("99999") && missing.stderr.contains(revisions.map(String.init).joined(separator: ", ")))
        #expect(try cli.run(db: db, ["history", "nobody"]).exitCode == 1)
    }

    @Test func restoreRevisionIsANewUpdateThatCanBeUndoneToo() throws {
        let db = try updatedThreeTimes()
        let before = try history(db, "seed-anna-muller").map { $0["revision"] as? Int ?? 0 }
        let refused = try cli.run(db: db, ["restore", "seed-anna-muller", "--revision", "99999"])
        #expect(refused.exitCode == 1 && refused.stderr.contains("99999"))
        #expect(try history(db, "seed-anna-muller").count == 4, "nothing changed")

        _ = try succeeds(db, ["restore", "seed-anna-muller", "--revision", String(before[2])])
        let restored = try contact(db, ["seed-anna-muller"])
        #expect(restored["age"] as? Int == 35 && restored["company"] as? String == "Lindenbaum GmbH" && restored["note"] == nil)
        let versions = try history(db, "seed-anna-muller")
        #expect(versions.count == 5 && versions[0]["by"] as? String == "restore")
        #expect(Set(versions[0]["fields"] as? [String] ?? []) == ["company", "note"])

        // Undone: back to the version before the restore.
        _ = try succeeds(db, ["restore", "seed-anna-muller", "--revision", String(before[0])])
        let undone = try contact(db, ["seed-anna-muller"])
        #expect(undone["company"] as? String == "Lindenbaum AG" && undone["note"] as? String == "Met in Berlin")
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
    }

    @Test func importsKeepTheVersionsTheyReplaceButNoneForNewContacts() throws {
        let db = try cli.makeDatabase(in: directory)
        try cli.importContacts(ids: (0..<50).map { "new-\($0)" }, into: db, in: directory)
        let rows = { try DatabaseQueue(path: db).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM contactVersion") } }
        #expect(try rows() == 0)
        let file = try directory.write("again.json", #"[{"id": "new-3", "firstName": "Nina"}]"#)
        _ = try succeeds(db, ["import", file, "--existing", "update"])
        let versions = try history(db, "new-3")
        #expect(versions.count == 2 && versions[0]["by"] as? String == "import again.json")
        #expect(versions[0]["fields"] as? [String] == ["firstName"])
        #expect(try rows() == 1)
    }

    @Test func theHistoryKeepsNoMoreVersionsThanItIsTold() throws {
        let db = try updatedThreeTimes()
        #expect(try succeeds(db, ["settings", "history-versions"]).stdout == "50\n")
        #expect(try succeeds(db, ["settings", "history-days"]).stdout == "90\n")
        _ = try succeeds(db, ["settings", "history-versions", "2"])
        _ = try succeeds(db, ["update", "seed-anna-muller", "--age", "36"])
        #expect(try history(db, "seed-anna-muller").count == 2)
        #expect(try succeeds(db, ["compact", "--history-before", "2999-01-01"]).stdout == "Forgot 1 replaced version.\n")
        #expect(try history(db, "seed-anna-muller").count == 1)
        #expect(try cli.run(db: db, ["settings", "history-versions", "0"]).exitCode == 64)
    }

    @Test func aMoveAndAMergeAreInTheHistory() throws {
        let db = try cli.makeDatabase(in: directory)
        _ = try succeeds(db, ["book", "create", "work"])
        _ = try succeeds(db, ["move", "seed-acme", "--to", "work"])
        let moved = try history(db, "seed-acme")
        #expect(moved.first?["by"] as? String == "move" && moved.first?["fields"] as? [String] == ["book"])

        let file = try directory.write("twin.json", #"[{"id": "anna-2", "firstName": "Anna", "lastName": "Müller", "jobTitle": "Engineer"}]"#)
        _ = try succeeds(db, ["import", file])
        _ = try succeeds(db, ["merge", "seed-anna-muller", "anna-2"])
        let merged = try history(db, "seed-anna-muller")
        #expect(merged.first?["by"] as? String == "merge" && (merged.first?["fields"] as? [String] ?? []).contains("jobTitle"))
        let before = try contact(db, ["seed-anna-muller", "--revision", String(merged[1]["revision"] as? Int ?? 0)])
        #expect(before["jobTitle"] == nil)
    }

    @Test func aContactBackFromTheTrashKeepsItsHistoryAndANewOneOfItsIDStartsAfresh() throws {
        let db = try cli.makeDatabase(in: directory)
        _ = try succeeds(db, ["update", "seed-acme", "--age", "30"])
        _ = try succeeds(db, ["delete", "seed-acme"])
        _ = try succeeds(db, ["restore", "seed-acme"])
        let back = try history(db, "seed-acme")
        #expect(back.count == 3 && back[0]["by"] as? String == "restore" && back[1]["fields"] as? [String] == ["age"])
        #expect((back[0]["fields"] as? [String] ?? []).contains("company"))
        #expect(try contact(db, ["seed-acme", "--revision", String(back[2]["revision"] as? Int ?? 0)])["age"] is NSNull)

        _ = try succeeds(db, ["delete", "seed-acme"])
        try cli.importContacts(ids: ["seed-acme"], into: db, in: directory)
        let fresh = try history(db, "seed-acme")
        #expect(fresh.count == 1 && (fresh.first?["by"] as? String ?? "").hasPrefix("import ids-"))
        #expect(fresh.first?["fields"] as? [String] == ["firstName"])
    }
}
