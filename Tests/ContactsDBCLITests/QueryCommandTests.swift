import ArgumentParser
import ContactsDBTestSupport
import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBCLI

@Suite struct QueryCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    /// Each text the registry says is typed with an option has one, and it
    /// lands in its field.
    @Test func theWholeCardsOptionsAreTheRegistrysAndLandInTheirFields() throws {
        let keys = DetailText.with(.option).map(\.key)
        #expect(Set(try ContactInputOptions.parse([]).detailOptions.keys) == Set(keys))
        let kebab = { (key: String) in key.replacing(/[A-Z]/) { "-" + $0.output.lowercased() } }
        let arguments = keys.flatMap { ["--\(kebab($0))", $0 == "birthday" ? "1980-02-29" : "value of \($0)"] }
        let options = try ContactInputOptions.parse(arguments)
        var draft = ContactDraft()
        options.apply(to: &draft)
        for text in DetailText.with(.option) {
            #expect(draft.details[keyPath: text.field] == (text.key == "birthday" ? "1980-02-29" : "value of \(text.key)"))
        }
    }

    /// `--has` takes the library's attributes and no other name: each one
    /// filters by its own bit, and the help lists them all.
    @Test func hasTakesEachAttributeOfTheLibrary() throws {
        for attribute in ContactAttribute.allCases {
            let options = try QueryOptions.parse(["--has", attribute.rawValue])
            #expect(try options.makeQuery().filters == [.has(attribute.bit)], "\(attribute)")
        }
        #expect(throws: (any Error).self) { try QueryOptions.parse(["--has", "fax"]) }
        let help = QueryOptions.helpMessage(columns: 400)
        #expect(help.contains("values: " + ContactAttribute.allCases.map(\.rawValue).joined(separator: ", ")), "\(help)")
    }

    @Test func globalDatabaseOptionMovesBehindTheCommand() {
        #expect(movingGlobalOptions(["--db", "x.sqlite", "query", "--count"]) == ["query", "--count", "--db", "x.sqlite"])
        #expect(movingGlobalOptions(["--db=x.sqlite", "delete", "a", "--", "-b"]) == ["delete", "a", "--db=x.sqlite", "--", "-b"])
        #expect(movingGlobalOptions(["query", "--db", "x"]) == ["query", "--db", "x"])
        #expect(movingGlobalOptions(["--db", "x", "frobnicate"]) == ["frobnicate"])
    }

    @Test func optionsBuildTheQueryOfTheFilterAndSortSheets() throws {
        let command = try ContactsDBCommand.parseAsRoot(
            ["query", "--has", "telegram", "--has", "phone", "--has", "email", "--name", "ив",
             "--sort", "last-name:desc", "--limit", "20", "--offset", "40"])
        let query = try #require(command as? ContactsDBCommand.Query).filters.makeQuery()
        #expect(query == ContactQuery().filter(.has([.telegram, .phone, .email])).filter(.namePrefix("ив"))
            .sorted(by: .lastName, descending: true).page(limit: 20, offset: 40))
    }

    @Test func formatsAgreeOnTheContacts() throws {
        let db = directory.path("formats.sqlite")
        let filters = ["query", "--has", "telegram", "--sort", "first-name"]
        let ndjson = try cli.run(db: db, filters + ["--format", "ndjson"])
        let ids = ndjson.lines.map { String($0.split(separator: "\"")[3]) }
        #expect(ids == ["seed-yolka-orlova", "seed-ivan-petrov", "seed-hong-gildong"])  // Алёна, Иван, 길동
        let json = try cli.run(db: db, filters + ["--format", "json"])
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
        #expect(decoded.map { $0["id"] as! String } == ids)
        let csv = try cli.run(db: db, filters + ["--format", "csv"])
        #expect(csv.stdout.split(separator: "\r\n").count == 4)
        let table = try cli.run(db: db, filters)
        #expect(table.lines.count == 4 && table.lines[0].hasPrefix("NAME"))
        #expect(table.stdout.contains("+7 (912) 345-67-89") && table.stdout.contains("010-1234-5678"))
    }

    @Test func phoneSearchFindsANumberHoweverItIsWritten() throws {
        let db = directory.path("phones.sqlite")
        for written in ["+7 912 345-67-89", "8 (912) 3456789", "79123456789", "9123456789", "345-67-89"] {
            let result = try cli.run(db: db, ["query", "--phone", written, "--format", "ndjson"])
            #expect(result.stdout.contains("seed-ivan-petrov"), "\(written)")
            // 3456789 also occurs in Anna's +49 151 2345 6789.
            #expect(result.lines.count == (written == "345-67-89" ? 2 : 1), "\(written)")
        }
    }

    @Test func sectionsListEachNonEmptySectionInIndexOrder() throws {
        let db = directory.path("sections.sqlite")
        let json = try cli.run(db: db, ["query", "--sections", "--format", "json"])
        let sections = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
        #expect(sections.map { $0["sectionKey"] as! String } == ["A", "D", "M", "O", "S", "Е", "И", "П", "ㄱ", "ㅎ"])
        #expect(sections.map { $0["count"] as! Int }.reduce(0, +) == 10)
    }

    @Test func explainShowsTheSQLAndThePlan() throws {
        let db = directory.path("explain.sqlite")
        let result = try cli.run(db: db, ["query", "--has", "telegram", "--has", "phone", "--has", "email",
                                          "--sort", "last-name:desc", "--explain"])
        #expect(result.stdout.hasPrefix("SELECT"))
        #expect(result.stdout.contains("QUERY PLAN\nSCAN contact USING INDEX contact_on_lastName_desc"))
    }
}
