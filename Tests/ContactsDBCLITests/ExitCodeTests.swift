import ContactsDBTestSupport
import Foundation
import GRDB
import Testing

/// Bad input: one sentence on stderr, its exit code (docs/cli.md, "Exit
/// codes"), nothing written.
@Suite struct ExitCodeTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()
    let db: String

    init() throws {
        db = try cli.makeDatabase(in: directory)
    }

    func fileBytes() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: db))
    }

    func export() throws -> String {
        try cli.run(db: db, ["export"]).stdout
    }

    static let failures: [(arguments: [String], code: Int32, mentions: String)] = [
        (["show", "nobody"], 1, "nobody"),
        (["update", "nobody", "--age", "3"], 1, "nobody"),
        (["delete", "seed-acme", "nobody"], 1, "nobody"),
        (["frobnicate"], 64, "frobnicate"),
        (["query", "--sort", "age"], 64, "--sort"),
        (["query", "--phone", "12"], 64, "--phone"),
        // Only the commands that take contacts in (import, sync) have threads for them.
        (["query", "--workers", "2"], 64, "--workers"),
        (["import", "-", "--workers", "0"], 64, "--workers as 1 or more"),
        (["query", "--has", "fax"], 64, "fax"),
        (["add"], 64, "--first-name"),
        (["add", "--first-name", "A", "--age", "old"], 64, "age"),
        (["add", "--first-name", "A", "--messenger", "telegram"], 64, "SERVICE:HANDLE"),
        (["add", "--first-name", "A", "--age", "1000"], 65, "age"),
        (["add", "--first-name", "A", "--phone", "12-34"], 65, "phones[0].value"),
        (["add", "--first-name", "A", "--email", "not-an-email"], 65, "emails[0].value"),
        (["add", "--first-name", "A", "--messenger", "icq:123"], 65, "messengers[0].service"),
        (["add", "--company", "   "], 65, "firstName"),
        (["update", "seed-acme", "--company", ""], 65, "firstName"),
        (["import", "/no/such/file.json"], 66, "/no/such/file.json"),
        (["seed", "/no/such/seed.json"], 66, "/no/such/seed.json"),
    ]

    @Test(arguments: failures.indices)
    func badInputExitsWithTheSpecCodeAndChangesNothing(_ index: Int) throws {
        let (arguments, code, mention) = Self.failures[index]
        let before = try export()
        let result = try cli.run(db: db, arguments)
        #expect(result.exitCode == code, "\(arguments): \(result.stderr)")
        let firstLine = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasPrefix("Error: "), "\(arguments): \(result.stderr)")
        #expect(firstLine.contains(mention), "\(arguments): \(firstLine)")
        #expect(result.stdout.isEmpty)
        #expect(try export() == before)
    }

    @Test func badFilesExitWith65AndNameWhereTheyBreak() throws {
        let before = try export()
        let broken = directory.write("broken.json", "[{\"firstName\": \"A\"},\n {\"firstName\" \"B\"}]")
        let result = try cli.run(db: db, ["import", broken])
        #expect(result.exitCode == 65)
        #expect(result.stderr.hasPrefix("Error: broken.json:2:15: not valid JSON"))
        let invalid = directory.write("invalid.json", #"[{"firstName": "A"}, {"firstName": "B", "age": 1000}]"#)
        let named = try cli.run(db: db, ["import", invalid])
        #expect(named.exitCode == 65)
        #expect(named.stderr.hasPrefix("Error: contacts[1].age: 1000 is out of range"), "\(named.stderr)")
        #expect(try export() == before)
    }

    @Test func databasesThisBuildMustNotTouchExitWith74Untouched() throws {
        let newer = directory.path("newer.sqlite")
        try FileManager.default.copyItem(atPath: db, toPath: newer)
        try DatabaseQueue(path: newer).write { db in
            try db.execute(sql: "INSERT INTO schemaMigration VALUES ('9999_from_the_future', 'abc', '2099-01-01T00:00:00.000Z')")
        }
        let text = directory.write("notes.txt", "plain text, not SQLite")
        for path in [newer, text] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let result = try cli.run(db: path, ["query"])
            #expect(result.exitCode == 74, "\(path): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
        #expect(try cli.run(db: newer, ["query"]).stderr.contains("9999_from_the_future"))
        #expect(try cli.run(db: directory.path("no/such/dir/x.sqlite"), ["query"]).exitCode == 74)
    }

    @Test func noMatchIsNotAnError() throws {
        let table = try cli.run(db: db, ["query", "--name", "qqqq"])
        #expect(table.exitCode == 0 && table.stdout == "No contacts match these filters.\n")
        let json = try cli.run(db: db, ["query", "--name", "qqqq", "--format", "json"])
        #expect(json.exitCode == 0 && json.stdout == "[]\n")
        #expect(try cli.run(db: db, ["query", "--name", "qqqq", "--count", "--format", "json"]).stdout == "0\n")
    }
}
