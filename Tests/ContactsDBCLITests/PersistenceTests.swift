import ContactsDBTestSupport
import Foundation
import Testing

/// The ESContacts app's test instructions, each step a separate process of
/// the built binary against one database file.
@Suite struct PersistenceTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    @Test func firstRunSeedsOnceAndEveryChangeSurvivesRestarts() throws {
        let db = directory.path("contacts.sqlite")
        let first = try cli.run(db: db, ["query"])
        #expect(first.exitCode == 0)
        #expect(first.stderr.contains("Imported the bundled seed (10 contacts)"))
        #expect(first.lines.count == 11, "header and 10 contacts:\n\(first.stdout)")
        #expect(first.stdout.contains("Иван Петров") && first.stdout.contains("홍길동"))

        #expect(try cli.count(db) == 10)
        let reopened = try cli.run(db: db, ["query", "--format", "json"])
        #expect(reopened.stderr.isEmpty, "a reopen printed: \(reopened.stderr)")

        #expect(try cli.run(db: db, ["delete", "seed-ivan-petrov"]).exitCode == 0)
        #expect(try cli.count(db) == 9)
        #expect(try cli.run(db: db, ["show", "seed-ivan-petrov"]).exitCode == 1)

        let added = try cli.run(db: db, ["add", "--first-name", "Мария", "--last-name", "Соколова",
                                         "--phone", "work:+7 903 111-22-33", "--messenger", "telegram:@masha"])
        #expect(added.exitCode == 0, "\(added.stderr)")
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try cli.count(db) == 10)

        let updated = try cli.run(db: db, ["update", id, "--email", "masha@example.ru", "--age", "30"])
        #expect(updated.exitCode == 0, "\(updated.stderr)")
        let shown = try cli.run(db: db, ["show", id, "--format", "json"])
        let emails = (try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [[String: Any]])?.first?["emails"]
        #expect((emails as? [[String: String]])?.map { $0["value"] } == ["masha@example.ru"], "\(shown.stdout)")
        #expect(shown.stdout.contains("\"masha@example.ru\"") && shown.stdout.contains("\"age\": 30"))
        #expect(shown.stdout.contains("\"e164\": \"+79031112233\""))

        let seed = try cli.run(db: db, ["seed"])
        #expect(seed.exitCode == 0)
        #expect(seed.stdout.contains("already imported"))
        #expect(try cli.count(db) == 10)

        for _ in 0..<3 { #expect(try cli.count(db) == 10) }
        let all = try cli.run(db: db, ["delete"] + (try cli.run(db: db, ["export", "--format", "ndjson"]).lines.map {
            String($0.split(separator: "\"")[3])
        }))
        #expect(all.exitCode == 0, "\(all.stderr)")
        #expect(try cli.count(db) == 0)
        #expect(try cli.count(db) == 0, "the seed came back after every contact was deleted")
    }

    @Test func initNoSeedDeclinesUntilAnExplicitSeed() throws {
        let db = directory.path("declined.sqlite")
        let initialized = try cli.run(db: db, ["init", "--no-seed"])
        #expect(initialized.exitCode == 0)
        #expect(try cli.count(db) == 0)
        #expect(try cli.count(db) == 0)
        let seeded = try cli.run(db: db, ["seed"])
        #expect(seeded.stdout.contains("10 contacts"))
        #expect(try cli.count(db) == 10)
    }

    @Test func seedingAnotherFileHappensOncePerDatabase() throws {
        let db = directory.path("other.sqlite")
        let file = directory.write("team.json", #"{"contacts": [{"firstName": "Ada"}, {"firstName": "Grace"}]}"#)
        #expect(try cli.run(db: db, ["init"]).stdout.contains("10 contacts"))
        #expect(try cli.run(db: db, ["seed", file]).stdout.contains("2 contacts"))
        let again = try cli.run(db: db, ["seed", file])
        #expect(again.exitCode == 0 && again.stdout.contains("already imported on 20"))
        #expect(try cli.count(db) == 12)
    }

    @Test func exportImportsIntoAFreshDatabaseWithEveryField() throws {
        let db = directory.path("source.sqlite")
        let generated = directory.write("many.json", try ContactsFixture.json(count: 120))
        #expect(try cli.run(db: db, ["import", generated]).exitCode == 0)
        let exported = try cli.run(db: db, ["export"])
        let file = directory.write("export.json", exported.stdout)

        let copy = directory.path("copy.sqlite")
        #expect(try cli.run(db: copy, ["init", "--no-seed"]).exitCode == 0)
        let imported = try cli.run(db: copy, ["import", file])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let reexported = try cli.run(db: copy, ["export"])
        #expect(ContactsFixture.withoutTimestamps(reexported.stdout) == ContactsFixture.withoutTimestamps(exported.stdout))
        #expect(try cli.count(copy) == 130)
    }

    @Test func theDatabasePathComesFromTheEnvironmentOrXDG() throws {
        var cli = CLIRunner()
        cli.environment = ["CONTACTSDB_PATH": directory.path("env.sqlite")]
        #expect(try cli.run(["query", "--count"]).stdout == "10\n")
        #expect(FileManager.default.fileExists(atPath: directory.path("env.sqlite")))

        cli.environment = ["CONTACTSDB_PATH": "", "XDG_DATA_HOME": directory.path("xdg")]
        #expect(try cli.run(["query", "--count"]).stdout == "10\n")
        #expect(FileManager.default.fileExists(atPath: directory.path("xdg/contactsdb/contacts.sqlite")))

        // Without XDG_DATA_HOME, $HOME decides, not the password database.
        cli.environment = ["CONTACTSDB_PATH": "", "XDG_DATA_HOME": "", "HOME": directory.path("home")]
        #expect(try cli.run(["query", "--count"]).stdout == "10\n")
        #expect(FileManager.default.fileExists(atPath: directory.path("home/.local/share/contactsdb/contacts.sqlite")))

        let flagged = try cli.run(["query", "--count", "--db", directory.path("flag.sqlite")])
        #expect(flagged.stdout == "10\n")
    }

    @Test func backupWritesACopyThatOpensWithTheSameContacts() throws {
        let db = directory.path("original.sqlite")
        #expect(try cli.run(db: db, ["add", "--company", "Backed Up Ltd"]).exitCode == 0)
        let copy = directory.path("copy.sqlite")
        let result = try cli.run(db: db, ["backup", copy])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let original = try cli.run(db: db, ["export"]).stdout
        #expect(try cli.run(db: copy, ["export"]).stdout == original)
        #expect(try cli.run(db: copy, ["query", "--count"]).stdout == "11\n")

        let occupied = directory.write("occupied.sqlite", "keep me")
        let refused = try cli.run(db: db, ["backup", occupied])
        #expect(refused.exitCode == 74)
        #expect(try String(contentsOfFile: occupied, encoding: .utf8) == "keep me")
    }

    @Test func aBinaryCopiedAloneStillWorks() throws {
        let copy = directory.path("contactsdb")
        try FileManager.default.copyItem(atPath: CLIRunner.binary.path, toPath: copy)
        var cli = CLIRunner()
        cli.binary = URL(fileURLWithPath: copy)
        let db = directory.path("alone.sqlite")
        let result = try cli.run(db: db, ["query", "--format", "ndjson"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.lines.count == 10)
        #expect(try cli.run(db: db, ["migrate", "--status"]).stdout.hasPrefix("applied  0001_initial"))
    }
}

enum ContactsFixture {
    /// A generated data set in the JSON format, written by the library.
    static func json(count: Int) throws -> String {
        let result = try CLIRunner().run(["generate", "--contacts", String(count), "--seed", "9"])
        return result.stdout
    }

    /// Export text with createdAt, updatedAt and revision removed: those
    /// are set anew by every import.
    static func withoutTimestamps(_ text: String) -> String {
        text.replacingOccurrences(of: #""(createdAt|updatedAt)": "[^"]*", "#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""revision": [0-9]+, "#, with: "", options: .regularExpression)
    }
}
