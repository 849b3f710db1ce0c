import ContactsDBTestSupport
import Foundation
import GRDB
import Testing

/// `contactsdb birthdays` across processes: dates added, imported, changed
/// and deleted by one process are listed by the next, in each format.
@Suite struct BirthdaysCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    func listed(_ db: String, _ arguments: [String]) throws -> [[String: Any]] {
        let result = try cli.run(db: db, ["birthdays", "--format", "json"] + arguments)
        #expect(result.exitCode == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]] ?? []
    }

    @Test func datesAreListedInOrderAcrossTheTurnOfTheYear() throws {
        let db = try cli.makeEmptyDatabase("dates.sqlite", in: directory)
        for arguments in [["--first-name", "Noor", "--birthday", "1990-01-03"],
                          ["--first-name", "Ilse", "--birthday=--12-30"],
                          ["--first-name", "Piet", "--birthday", "2004-02-29"]] {
            #expect(try cli.run(db: db, ["add"] + arguments).exitCode == 0)
        }
        let card = directory.write("wed.vcf", """
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Mara Vos\r
            N:Vos;Mara;;;\r
            ANNIVERSARY:20100102\r
            END:VCARD\r

            """)
        #expect(try cli.run(db: db, ["import", card]).exitCode == 0)

        let year = try listed(db, ["--from", "2026-12-28", "--within", "7"])
        #expect(year.map { "\($0["date"]!) \($0["displayName"]!) \($0["kind"]!) \($0["label"]!) \($0["age"]!)" } == [
            "2026-12-30 Ilse birthday birthday <null>", "2027-01-02 Mara Vos anniversary anniversary 17",
            "2027-01-03 Noor birthday birthday 37",
        ])
        #expect(Set(year[0].keys) == ["id", "displayName", "kind", "label", "date", "age"])
        #expect(year[0]["age"] is NSNull)
        // 29 February on the 28th in a common year; --within 0 is the day alone.
        #expect(try listed(db, ["--from", "2027-02-28", "--within", "0"]).map { "\($0["date"]!) \($0["age"]!)" }
                == ["2027-02-28 23"])
        #expect(try listed(db, ["--from", "2028-02-28", "--within", "0"]).isEmpty)

        // Table and CSV show the same columns; ndjson one date a line.
        let table = try cli.run(db: db, ["birthdays", "--from", "2027-01-03", "--within", "0"]).stdout
        #expect(table.hasPrefix("DATE") && table.contains("2027-01-03  37   birthday  birthday  Noor"), "\(table)")
        let csv = try cli.run(db: db, ["birthdays", "--from", "2027-01-02", "--within", "1", "--format", "csv"]).stdout
            .split(separator: "\r\n").map(String.init)
        #expect(csv.first == "id,displayName,kind,label,date,age" && csv.count == 3 && csv[2].hasSuffix(",Noor,birthday,birthday,2027-01-03,37"))
        #expect(try cli.run(db: db, ["birthdays", "--from", "2026-12-28", "--format", "ndjson"]).lines.count == 3)
        #expect(try cli.run(db: db, ["birthdays", "--from", "2027-06-01", "--within", "0"]).stdout
                == "No birthdays or anniversaries in these days.\n")

        // A change or a delete in one process is seen by the next; so is --has birthday.
        let noor = try #require(year[2]["id"] as? String)
        #expect(try cli.run(db: db, ["query", "--has", "birthday", "--count"]).stdout == "3\n")
        #expect(try cli.run(db: db, ["update", noor, "--birthday", "1990-01-05"]).exitCode == 0)
        #expect(try listed(db, ["--from", "2027-01-05", "--within", "0"]).map { $0["id"] as? String } == [noor])
        #expect(try cli.run(db: db, ["delete", noor]).exitCode == 0)
        #expect(try listed(db, ["--from", "2026-12-28", "--within", "30"]).count == 2)
        #expect(try cli.run(db: db, ["query", "--has", "birthday", "--count"]).stdout == "2\n")
    }

    @Test(arguments: [
        ["--from", "2027-02-29"], ["--from", "27-01-01"], ["--from=--01-01"], ["--from", "tomorrow"],
        ["--from", "9999-12-31", "--within", "1"], ["--within=-1"], ["--within", "367"],
    ])
    func badDaysAreRefusedWithOneSentence(_ arguments: [String]) throws {
        let db = try cli.makeDatabase(in: directory)
        let result = try cli.run(db: db, ["birthdays"] + arguments)
        #expect(result.exitCode == 64 && result.stdout.isEmpty, "\(arguments) \(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: Please give --"), "\(result.stderr)")
    }

    @Test func doctorFindsABirthdayBitOutOfStepAndReindexMendsIt() throws {
        let db = try cli.makeEmptyDatabase("bit.sqlite", in: directory)
        #expect(try cli.run(db: db, ["add", "--first-name", "Noor", "--birthday", "1990-01-03"]).exitCode == 0)
        try DatabaseQueue(path: db).write { db in try db.execute(sql: "UPDATE contact SET attributes = attributes & ~1024") }
        #expect(try cli.run(db: db, ["doctor"]).exitCode != 0)
        #expect(try cli.run(db: db, ["reindex"]).exitCode == 0)
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
        #expect(try cli.run(db: db, ["query", "--has", "birthday", "--count"]).stdout == "1\n")
    }
}
