import ContactsDBTestSupport
import Foundation
import Testing

/// Text another address book wrote, printed where it could act: escape
/// sequences on a terminal, formulas in a spreadsheet.
@Suite struct HostileTextOutputTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    /// A name that would clear the screen and fill the clipboard (OSC 52).
    static let escapes = "Mallory\u{1B}]52;c;ZXZpbA==\u{07}", clearing = "\u{1B}[2J\u{1B}[HEve\u{9B}31m\u{7F}"

    func database(_ json: String) throws -> String {
        let db = try cli.makeEmptyDatabase("hostile.sqlite", in: directory)
        let result = try cli.run(db: db, ["import", directory.write("hostile.json", json)])
        #expect(result.exitCode == 0, "\(result.stderr)")
        return db
    }

    /// Runs the binary with a terminal as stdout and stderr (util-linux's
    /// `script`), and returns what the terminal received.
    func onATerminal(_ arguments: [String]) throws -> String {
        let command = ([CLIRunner.binary.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let result = try CLIRunner(binary: URL(fileURLWithPath: "/usr/bin/script"))
            .run(["--quiet", "--return", "--command", command.joined(separator: " "), "/dev/null"])
        #expect(result.exitCode == 0, "\(result.stdout)")
        return result.stdout
    }

    @Test func controlCharactersAreShownNotObeyedOnATerminal() throws {
        let name = try JSONSerialization.data(withJSONObject: [["id": "m", "firstName": Self.escapes, "lastName": Self.clearing,
                                                               "emails": [["value": "mallory@example.org"]]]])
        let db = try database(String(decoding: name, as: UTF8.self))
        for arguments in [["query"], ["show", "m"], ["email", "mallory"]] {
            let screen = try onATerminal(["--db", db] + arguments)
            #expect(!screen.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{9B}" || $0 == "\u{7F}" },
                    "\(arguments): \(screen.debugDescription)")
            #expect(screen.contains("Mallory␛]52;c;ZXZpbA==␇") && screen.contains("␛[2J␛[HEve�31m␡"), "\(arguments)")
        }
        // Into a pipe or a file the text goes out exactly, for programs.
        let piped = try cli.run(db: db, ["email", "mallory", "--format", "aerc"])
        #expect(piped.stdout.contains(Self.escapes))
    }

    static let formulas = [
        "=HYPERLINK(\"http://attacker.example\",\"open\")", "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0", "@SUM(A1:A9)",
        "'=already quoted", "''+twice",
    ]

    /// In the layouts made for spreadsheets a cell that would be a formula
    /// begins with `'`; numbers as phones are written stay as they are; our
    /// own layout is exact; reading either layout back gives every text.
    @Test(arguments: ["google", "outlook"])
    func formulaCellsAreNeutralisedInSpreadsheetLayoutsOnly(_ style: String) throws {
        let records = Self.formulas.enumerated().map { index, text in
            ["id": "f\(index)", "firstName": text, "lastName": "Formula \(index)",
             "phones": [["type": "mobile", "value": "+7 912 345-67-8\(index)"]]]
        }
        let db = try database(String(decoding: try JSONSerialization.data(withJSONObject: records), as: UTF8.self))
        let sheet = try cli.run(db: db, ["export", "--format", "csv", "--csv-style", style]).stdout
        let cells = sheet.split(whereSeparator: { $0 == "," || $0 == "\r\n" || $0 == "\n" })
            .map { $0.hasPrefix("\"") ? String($0.dropFirst()) : String($0) }
        #expect(!cells.contains { cell in "=+-@\t".contains(cell.first ?? " ") && !cell.allSatisfy { "+-0123456789 ()".contains($0) } },
                "\(sheet)")
        #expect(sheet.contains("+7 912 345-67-80") && sheet.contains("'=HYPERLINK") && sheet.contains("'''+twice"))
        let own = try cli.run(db: db, ["export", "--format", "csv"]).stdout
        #expect(own.contains("=HYPERLINK") && !own.contains("'=HYPERLINK") && own.contains("''+twice") && !own.contains("'''"))

        let copy = try cli.makeEmptyDatabase("copy-\(style).sqlite", in: directory)
        #expect(try cli.run(db: copy, ["import", directory.write("sheet-\(style).csv", sheet)]).exitCode == 0)
        let names = try JSONSerialization.jsonObject(with: Data(try cli.run(db: copy, ["export"]).stdout.utf8)) as? [[String: Any]]
        #expect(Set((names ?? []).compactMap { $0["firstName"] as? String }) == Set(Self.formulas))
    }
}
