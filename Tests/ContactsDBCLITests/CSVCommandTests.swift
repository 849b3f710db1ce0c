import ContactsDBTestSupport
import Foundation
import Testing

/// CSV in and out through the binary: this engine's own layout, Google
/// Contacts' (current and older) and Outlook's, told by their headers
/// (issue 47, item 1). The producers' files in `Fixtures/CSV` are written
/// here from their published header lists (`make_csv_fixtures.py`).
@Suite struct CSVCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/CSV")

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// Every contact of `db`, as `export` writes JSON, by first name.
    func contacts(_ db: String) throws -> [String: [String: Any]] {
        let result = try cli.run(db: db, ["export"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let array = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
        return Dictionary(array.map { ($0["firstName"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    func values(_ contact: [String: Any]?, _ list: String, _ key: String = "value") -> [String] {
        (contact?[list] as? [[String: Any]] ?? []).map { $0[key] as? String ?? "" }
    }

    func imported(_ file: String, name: String = UUID().uuidString) throws -> (db: String, stderr: String) {
        let db = try cli.makeEmptyDatabase("\(name).sqlite", in: directory)
        let result = try cli.run(db: db, ["import", file])
        #expect(result.exitCode == 0, "\(file): \(result.stderr)")
        return (db, result.stderr)
    }

    // MARK: - Our own CSV

    /// An export imports again and exports the same bytes: every field CSV
    /// holds comes back, lists, groups, favorites, extra lines and texts
    /// with commas, quotes and line breaks included.
    @Test func ourOwnCSVRoundTripsExactly() throws {
        let db = try cli.makeDatabase(in: directory)
        let card = directory.write("odd.vcf", """
            BEGIN:VCARD\r
            VERSION:4.0\r
            UID:odd\r
            N:O'Brien\\, "Jr.";Siobhán;;;\r
            NOTE:line one\\nline two\\, with "quotes"\r
            X-SHOE-SIZE:39\r
            CATEGORIES:Friends,Ski club\r
            URL;TYPE=work:https://obrien.example\r
            RELATED;TYPE=spouse;VALUE=text:Aoife\r
            BDAY:--03-07\r
            END:VCARD\r

            """)
        #expect(try cli.run(db: db, ["import", card]).exitCode == 0)
        #expect(try cli.run(db: db, ["favorite", "odd", "seed-ivan-petrov"]).exitCode == 0)
        let first = try cli.run(db: db, ["export", "--format", "csv"]).stdout
        let file = directory.write("own.csv", first)
        let (copy, _) = try imported(file)
        #expect(try cli.run(db: copy, ["export", "--format", "csv"]).stdout == first)
        // The contact that holds every kind of text came back whole.
        let odd = try contacts(copy)["Siobhán"]
        #expect(odd?["lastName"] as? String == "O'Brien, \"Jr.\"" && odd?["note"] as? String == "line one\nline two, with \"quotes\"")
        #expect(odd?["favorite"] as? Bool == true && (odd?["groups"] as? [String]) == ["Friends", "Ski club"])
        #expect((odd?["extra"] as? [String]) == ["X-SHOE-SIZE:39"])
    }

    /// A header naming one column twice keeps both cells (the second as an
    /// extra property, counted); a file mixing UTF-8 rows with Windows-1252
    /// ones reads each row right; Outlook.com's `Nickname` is the nickname.
    @Test func repeatedColumnsMixedEncodingsAndOutlookComsNickname() throws {
        let repeated = directory.write("repeated.csv", "First Name,Last Name,First Name\r\nAnn,Lee,Anna\r\n")
        let (db, stderr) = try imported(repeated)
        let ann = try contacts(db)["Ann"]
        #expect(ann?["lastName"] as? String == "Lee" && (ann?["extra"] as? [String]) == ["X-FIRST-NAME:Anna"], "\(String(describing: ann))")
        #expect(stderr.contains("X-FIRST-NAME"), "\(stderr)")

        var mixed = Data("First Name,Last Name\r\nZoë,Ünal\r\n".utf8)
        mixed += Data([0x43, 0x68, 0x6C, 0x6F, 0xEB, 0x2C, 0x44, 0xFC, 0x72, 0x72, 0x0D, 0x0A])  // "Chloë,Dürr" in Windows-1252
        let file = directory.path("mixed.csv")
        try mixed.write(to: URL(fileURLWithPath: file))
        let names = try contacts(try imported(file).db)
        #expect(names["Zoë"]?["lastName"] as? String == "Ünal" && names["Chloë"]?["lastName"] as? String == "Dürr",
                "\(names.keys.sorted())")

        let outlookCom = directory.write("outlook-com.csv", "First Name,Last Name,Nickname,E-mail Address,Mobile Phone\r\n"
            + "Robert,Smith,Bob,bob@example.com,+1 415 555 0100\r\n")
        let bob = try contacts(try imported(outlookCom).db)["Robert"]
        #expect(bob?["nickname"] as? String == "Bob" && bob?["extra"] == nil, "\(String(describing: bob))")
    }

    /// The same CSV with a comma, a semicolon or a tab between fields, with
    /// or without a byte-order mark, with CR LF or LF ends, imports the same
    /// contacts; a quoted field keeps its line breaks.
    @Test(arguments: [(",", "\r\n", false), (";", "\r\n", true), ("\t", "\n", false), (",", "\n", true), (";", "\r", false)])
    func separatorsLineEndsAndMarksReadAlike(separator: String, lineEnd: String, bom: Bool) throws {
        let rows = [["id", "firstName", "lastName", "note", "phone1Type", "phone1Value"],
                    ["a", "Ann", "Lee; \"the elder\"", "first line\r\nsecond, line", "mobile", "+1 415 555 0100"],
                    ["b", "Bo", "Park", "", "work", "+1 415 555 0101"]]
        let text = rows.map { row in
            row.map { $0.contains { "\",;\t\r\n".contains($0) } ? "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : $0 }
                .joined(separator: separator)
        }.joined(separator: lineEnd) + lineEnd
        let path = directory.path("sep-\(UUID().uuidString).csv")
        try ((bom ? Data([0xEF, 0xBB, 0xBF]) : Data()) + Data(text.utf8)).write(to: URL(fileURLWithPath: path))
        let (db, _) = try imported(path)
        let people = try contacts(db)
        #expect(people.count == 2)
        #expect(people["Ann"]?["id"] as? String == "a" && people["Ann"]?["lastName"] as? String == "Lee; \"the elder\"")
        #expect(people["Ann"]?["note"] as? String == "first line\nsecond, line", "\(people["Ann"]?["note"] ?? "")")
        #expect(values(people["Bo"], "phones") == ["+1 415 555 0101"] && values(people["Bo"], "phones", "type") == ["work"])
    }

    // MARK: - Google

    @Test func googlesCurrentLayoutImportsItsFields() throws {
        let (db, stderr) = try imported(Self.fixture("google.csv"))
        let people = try contacts(db)
        let ingrid = try #require(people["Ingrid"])
        #expect(ingrid["middleName"] as? String == "Maria" && ingrid["lastName"] as? String == "Svensson")
        #expect(ingrid["namePrefix"] as? String == "Dr." && ingrid["nickname"] as? String == "Inga")
        #expect(ingrid["company"] as? String == "Nordlys AB" && ingrid["jobTitle"] as? String == "Engineer"
                && ingrid["department"] as? String == "Research")
        #expect(ingrid["birthday"] as? String == "1984-03-07" && ingrid["note"] as? String == "Met at the fjord\nlikes coffee")
        // `* starred` is a favorite, `* myContacts` no group, the rest groups.
        #expect(ingrid["favorite"] as? Bool == true && (ingrid["groups"] as? [String]) == ["Friends", "Ski club"])
        #expect(values(ingrid, "emails") == ["ingrid@nordlys.example", "inga@post.example"])
        #expect(values(ingrid, "emails", "type") == ["work", "home"])
        #expect((ingrid["emails"] as? [[String: Any]])?.first?["preferred"] as? Bool == true)
        // ` ::: ` makes two numbers of one label.
        #expect(values(ingrid, "phones") == ["+46 70 123 45 67", "+46 70 765 43 21", "+46 8 555 010 20"])
        #expect(values(ingrid, "phones", "type") == ["mobile", "mobile", "work"])
        #expect(values(ingrid, "phones", "e164") == ["+46701234567", "+46707654321", "+46855501020"])
        #expect(values(ingrid, "addresses", "street1") == ["Storgatan 1"] && values(ingrid, "addresses", "zipcode") == ["111 22"])
        #expect(values(ingrid, "relations", "name") == ["Lars"] && values(ingrid, "relations", "type") == ["spouse"])
        #expect(values(ingrid, "urls") == ["https://nordlys.example/ingrid"] && values(ingrid, "urls", "type") == ["Profile"])
        #expect(values(ingrid, "dates") == ["2010-06-12"] && values(ingrid, "dates", "type") == ["anniversary"])
        #expect(values(ingrid, "messengers", "handle") == ["ingrid.s"] && values(ingrid, "messengers", "service") == ["skype"])
        #expect((ingrid["extra"] as? [String]) == ["X-CUSTOM-FIELD-1-LABEL:Shoe size", "X-CUSTOM-FIELD-1-VALUE:39"])
        let kenji = try #require(people["Kenji"])
        #expect(kenji["phoneticFirstName"] as? String == "けんじ" && kenji["birthday"] as? String == "--11-02")
        #expect(kenji["favorite"] as? Bool == false && (kenji["groups"] as? [String]) == [])
        #expect(values(kenji, "phones", "type") == ["other"])
        #expect(stderr.contains("Kept as extra properties, written back on export: X-CUSTOM-FIELD-1-LABEL ×1, X-CUSTOM-FIELD-1-VALUE ×1."),
                "\(stderr)")
    }

    @Test func googlesOlderLayoutImportsItsFields() throws {
        let (db, stderr) = try imported(Self.fixture("google-older.csv"))
        let paolo = try #require(try contacts(db)["Paolo"])
        #expect(paolo["lastName"] as? String == "Rossi" && paolo["birthday"] as? String == "1975-09-30")
        #expect(paolo["company"] as? String == "Rossi & Figli" && paolo["jobTitle"] as? String == "Owner")
        #expect((paolo["groups"] as? [String]) == ["Colleagues"] && paolo["favorite"] as? Bool == false)
        #expect(values(paolo, "emails") == ["paolo@rossi.example"] && values(paolo, "emails", "type") == ["work"])
        #expect(values(paolo, "phones", "type") == ["mobile", "Home Fax"])
        #expect(values(paolo, "addresses", "city") == ["Roma"] && values(paolo, "addresses", "type") == ["work"])
        #expect(values(paolo, "urls", "type") == ["Blog"])
        #expect(Set(paolo["extra"] as? [String] ?? []) == ["X-HOBBY:Sailing", "X-ORGANIZATION-1-TYPE:Other"])
        #expect(stderr.contains("X-HOBBY ×1, X-ORGANIZATION-1-TYPE ×1."), "\(stderr)")
    }

    // MARK: - Outlook

    /// Outlook writes the ANSI code page: a file that is not UTF-8 is read
    /// as Windows-1252. `0/0/00` is no date, `M/D/YYYY` a date, Categories
    /// are groups; Outlook's defaults (`Normal`, `Unspecified`, `False`)
    /// hold nothing.
    @Test func outlooksLayoutImportsItsFieldsFromWindows1252() throws {
        let (db, stderr) = try imported(Self.fixture("outlook-windows-1252.csv"))
        let people = try contacts(db)
        let zoe = try #require(people["Zoë"])
        #expect(zoe["lastName"] as? String == "Müller" && zoe["company"] as? String == "Bäckerei Müller")
        #expect(zoe["birthday"] as? String == "1990-04-12")
        #expect(values(zoe, "dates") == ["2015-06-01"] && values(zoe, "dates", "type") == ["anniversary"])
        #expect((zoe["groups"] as? [String]) == ["Kunden", "Lieferanten"])
        #expect(values(zoe, "phones", "type") == ["work", "home", "mobile"])
        #expect(values(zoe, "phones", "e164").first == "+49221123456")
        #expect(values(zoe, "addresses", "street1") == ["Hauptstraße 3"] && values(zoe, "addresses", "city") == ["Köln"])
        #expect(values(zoe, "relations", "name") == ["Jürgen"] && values(zoe, "urls") == ["https://baeckerei.example/"])
        #expect((zoe["note"] as? String)?.hasPrefix("Brötchen – dienstags") == true)
        #expect(Set(zoe["extra"] as? [String] ?? []) == [
            "X-E-MAIL-TYPE:SMTP", "X-E-MAIL-DISPLAY-NAME:Zoë Müller (zoe@baeckerei.example)", "X-GENDER:Female"])
        let bob = try #require(people["Bob"])
        #expect(bob["birthday"] == nil && values(bob, "dates").isEmpty)
        #expect(values(bob, "addresses", "type") == ["home"] && values(bob, "addresses", "state") == ["IL"])
        #expect(stderr.contains("X-E-MAIL-DISPLAY-NAME ×2, X-E-MAIL-TYPE ×2, X-GENDER ×1."), "\(stderr)")
    }

    // MARK: - Out in the producers' layouts, and back

    /// Google → import → Google export → import, and the same for Outlook
    /// and our own, gives the same names, phones, emails, groups and
    /// favorites.
    @Test(arguments: [("google.csv", "google"), ("google-older.csv", "google"), ("outlook-windows-1252.csv", "outlook"),
                      ("google.csv", "contactsdb"), ("outlook-windows-1252.csv", "contactsdb")])
    func aProducersLayoutRoundTrips(fixture: String, style: String) throws {
        let (db, _) = try imported(Self.fixture(fixture))
        let export = try cli.run(db: db, ["export", "--format", "csv", "--csv-style", style])
        #expect(export.exitCode == 0, "\(export.stderr)")
        let header = export.stdout.prefix { $0 != "\r\n" }
        switch style {
        case "google": #expect(header.hasPrefix("First Name,Middle Name,Last Name,") && header.contains("Labels,E-mail 1 - Label"))
        case "outlook": #expect(header.hasPrefix("Title,First Name,Middle Name,Last Name,Suffix,Company,"))
        default: #expect(header.hasPrefix("id,kind,firstName,"))
        }
        let (again, _) = try imported(directory.write("again-\(UUID().uuidString).csv", export.stdout))
        let (before, after) = (try contacts(db), try contacts(again))
        #expect(before.keys.sorted() == after.keys.sorted())
        for (name, contact) in before {
            let other = after[name]
            for key in ["firstName", "middleName", "lastName", "company", "birthday"] {
                #expect(contact[key] as? String == other?[key] as? String, "\(fixture) \(style) \(name).\(key)")
            }
            #expect(values(contact, "phones") == values(other, "phones") && values(contact, "phones", "type") == values(other, "phones", "type"),
                    "\(fixture) \(style) \(name)")
            #expect(values(contact, "emails") == values(other, "emails"), "\(fixture) \(style) \(name)")
            #expect(contact["groups"] as? [String] == other?["groups"] as? [String] && contact["favorite"] as? Bool == other?["favorite"] as? Bool,
                    "\(fixture) \(style) \(name)")
        }
    }

    /// Outlook's export writes its own blanks (`0/0/00`, `Normal`) where a
    /// contact holds nothing, and a kept column goes back to its place.
    @Test func outlooksExportWritesItsOwnBlanksAndKeptColumns() throws {
        let (db, _) = try imported(Self.fixture("outlook-windows-1252.csv"))
        let lines = try cli.run(db: db, ["export", "--format", "csv", "--csv-style", "outlook"]).stdout.components(separatedBy: "\r\n")
        let header = lines[0].components(separatedBy: ",")
        let bob = try #require(lines.first { $0.contains(",Bob,") }).components(separatedBy: ",")
        let cell = { (name: String) in bob[header.firstIndex(of: name)!] }
        #expect(cell("Birthday") == "0/0/00" && cell("Sensitivity") == "Normal" && cell("E-mail Type") == "SMTP")
        #expect(cell("Home Phone") == "(217) 555-0134" && cell("Home City") == "Springfield")
    }

    // MARK: - Refusals

    /// Broken CSV is one sentence naming the line, exit 65, and nothing is
    /// written: not the rows before it either.
    @Test(arguments: [
        ("id,firstName\r\na,Ann\r\nb,\"Bo\r\n", "line 3: not valid CSV: a quoted field opened on this line is never closed"),
        ("id,firstName\r\na,\"Ann\"x\r\n", "line 2: not valid CSV: a quoted field is closed and followed by \"x\""),
        ("id,firstName\r\na,Ann,extra\r\n", "row 1 (line 2): not valid CSV: the row has 3 fields and the header 2"),
        ("Colour,Shape\r\nred,round\r\n", "line 1: the header row names no column of a known CSV layout"),
    ])
    func brokenCSVIsRefusedWithNothingWritten(text: String, message: String) throws {
        let db = try cli.makeEmptyDatabase("broken-\(UUID().uuidString).sqlite", in: directory)
        let file = directory.write("broken.csv", text)
        let result = try cli.run(db: db, ["import", file])
        #expect(result.exitCode == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: broken.csv " + message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.hasSuffix(".\n"))
        #expect(try cli.count(db) == 0)
        // From stdin too, named as such.
        let piped = try cli.run(db: db, ["import", "-"], stdin: text)
        #expect(piped.exitCode == 65 && piped.stderr.hasPrefix("Error: stdin "), "\(piped.stderr)")
        #expect(try cli.count(db) == 0)
    }

    /// `import -` tells CSV from its first bytes, and refuses a NUL byte
    /// or a header row longer than any layout's as it streams in.
    @Test func standardInputTellsCSVAndRefusesWhatNoCSVHolds() throws {
        let db = try cli.makeEmptyDatabase("stdin.sqlite", in: directory)
        let ok = try cli.run(db: db, ["import", "-"], stdin: "\"First Name\",\"Last Name\"\r\n\"Ann\",\"Lee\"\r\n")
        #expect(ok.exitCode == 0 && ok.stdout == "Imported 1 contacts from stdin.\n", "\(ok.stderr)")
        let nul = try cli.run(db: db, ["import", "-"], stdin: "id,firstName\r\na,A\u{0}nn\r\n")
        #expect(nul.exitCode == 65 && nul.stderr.hasPrefix("Error: stdin line 2, byte 18: 0x00 is a NUL byte, which no CSV text holds"),
                "\(nul.stderr)")
        let long = try cli.run(db: db, ["import", "-"], stdin: String(repeating: "Column,", count: 10_000))
        #expect(long.exitCode == 65 && long.stderr.contains("the CSV header row runs past 64 KB"), "\(long.stderr)")
        #expect(try cli.count(db) == 1)
    }
}
