import ContactsDBTestSupport
import Foundation
import Testing

/// `contactsdb birthdays --format ics` and the feed's token, across
/// processes on one database file: cards imported by one process are
/// events of the next one's calendar.
@Suite struct BirthdayCalendarCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    /// A database with a book `family`: Apple's year-omitted birthday, a
    /// vCard 4.0 `--MMDD` one, 29 February with a year, an anniversary
    /// in `family`, and a birthday that is no date.
    func database() throws -> String {
        let db = try cli.makeEmptyDatabase("calendar.sqlite", in: directory)
        #expect(try cli.run(db: db, ["book", "create", "family"]).exitCode == 0)
        let cards = directory.write("cards.vcf", """
            BEGIN:VCARD\r
            VERSION:3.0\r
            UID:omit\r
            N:김;민지;;;\r
            FN:김민지\r
            BDAY;X-APPLE-OMIT-YEAR=1604:1604-03-09\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            UID:leap\r
            FN:Иван Петров\r
            N:Петров;Иван;;;\r
            BDAY:20000229\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            UID:yearless\r
            FN:Ana\r
            N:;Ana;;;\r
            BDAY:--1231\r
            BDAY;VALUE=text:circa 1800\r
            END:VCARD\r

            """)
        let imported = try cli.run(db: db, ["import", cards])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        let family = directory.write("family.json", """
            [{"id": "wed", "firstName": "Mara", "lastName": "Vos, Jr.", "dates": [{"type": "wedding", "value": "2010-01-02"}]}]
            """)
        #expect(try cli.run(db: db, ["import", "--book", "family", family]).exitCode == 0)
        return db
    }

    func unfoldedLines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
    }

    @Test func theCalendarHoldsEveryDateOnceWithTheUnreadableOneCountedOnStderr() throws {
        let db = try database()
        let result = try cli.run(db: db, ["birthdays", "--format", "ics"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr == "left out 1 dates that are not dates (kept as the cards wrote them)\n")
        let lines = unfoldedLines(result.stdout)
        #expect(lines.first == "BEGIN:VCALENDAR" && lines.suffix(2) == ["END:VCALENDAR", ""])
        #expect(!result.stdout.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(lines.filter { $0.hasPrefix("SUMMARY:") } == [
            "SUMMARY:Mara Vos\\, Jr.\\, wedding (2010)", "SUMMARY:Иван Петров (2000)", "SUMMARY:김민지",
            "SUMMARY:Ana",
        ])
        #expect(lines.filter { $0.hasPrefix("DTSTART") } == [
            "DTSTART;VALUE=DATE:20100102", "DTSTART;VALUE=DATE:20000229", "DTSTART;VALUE=DATE:19720309",
            "DTSTART;VALUE=DATE:19721231",
        ])
        #expect(lines.contains("UID:wed/date-0") && lines.contains("RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1"))
        // --from and --within do not narrow it; a second run gives the same bytes.
        #expect(try cli.run(db: db, ["birthdays", "--format", "ics", "--from", "2030-05-01", "--within", "1"]).stdout
                == result.stdout)
        // A change in one process is in the next one's calendar.
        let ana = try #require(try cli.run(db: db, ["query", "--name", "Ana", "--format", "json"]).stdout
            .firstMatch(of: /"id"\s*:\s*"([^"]+)"/)).1
        #expect(try cli.run(db: db, ["update", String(ana), "--birthday", "1999-12-31"]).exitCode == 0)
        #expect(unfoldedLines(try cli.run(db: db, ["birthdays", "--format", "ics"]).stdout).contains("SUMMARY:Ana (1999)"))
    }

    @Test func booksNarrowTheCalendarAndAnUnknownBookIsBadUsage() throws {
        let db = try database()
        let family = try cli.run(db: db, ["birthdays", "--format", "ics", "--book", "family"])
        #expect(family.exitCode == 0 && family.stderr.isEmpty, "\(family.stderr)")
        #expect(unfoldedLines(family.stdout).filter { $0.hasPrefix("SUMMARY:") } == ["SUMMARY:Mara Vos\\, Jr.\\, wedding (2010)"])
        let unknown = try cli.run(db: db, ["birthdays", "--format", "ics", "--book", "nowhere"])
        #expect(unknown.exitCode == 64 && unknown.stdout.isEmpty, "\(unknown.stderr)")
        #expect(unknown.stderr.hasPrefix("Error: ") && unknown.stderr.contains("nowhere"), "\(unknown.stderr)")
    }

    @Test func theFeedTokenIsKeptAcrossRunsUntilANewOneIsMade() throws {
        let db = try database()
        let noPort = try cli.run(db: db, ["serve", "--feed-url"])
        #expect(noPort.exitCode == 64 && noPort.stderr.contains("--port"), "\(noPort.stderr)")
        let first = try cli.run(db: db, ["serve", "--feed-url", "--port", "8642"])
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout.wholeMatch(of: /http:\/\/127\.0\.0\.1:8642\/calendar\/[0-9a-f]{64}\/birthdays\.ics\n/) != nil,
                "\(first.stdout)")
        #expect(try cli.run(db: db, ["serve", "--feed-url", "--port", "8642"]).stdout == first.stdout)
        let renewed = try cli.run(db: db, ["serve", "--new-feed-token", "--port", "8642"])
        #expect(renewed.exitCode == 0 && renewed.stdout != first.stdout && renewed.stdout.hasSuffix("/birthdays.ics\n"))
        #expect(try cli.run(db: db, ["serve", "--feed-url", "--port", "8642"]).stdout == renewed.stdout)
    }
}
