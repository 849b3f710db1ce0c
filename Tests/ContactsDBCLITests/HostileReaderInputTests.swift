import ContactsDBTestSupport
import Foundation
import Testing

/// Inputs that used to crash `import` (SIGILL on an empty vCard parameter)
/// or could overflow the stack (deep JSON): each now imports or is refused
/// with exit 65 and one sentence.
@Suite struct HostileReaderInputTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    struct Case: Sendable, CustomTestStringConvertible {
        var line: String
        /// The contacts' emails and phones after the import.
        var imported: String
        var testDescription: String { line }
    }

    static let cases = [
        Case(line: "TEL;:1", imported: "other 1"),
        Case(line: "TEL;;:1", imported: "other 1"),
        Case(line: "TEL;=:1", imported: "other 1"),
        Case(line: "EMAIL;;TYPE=home:a@b.c", imported: "home a@b.c"),
        Case(line: "TEL;:+1 415 555 0100", imported: "other +1 415 555 0100"),
        Case(line: "TEL;;;=;TYPE=cell;:+1 415 555 0100", imported: "mobile +1 415 555 0100"),
    ]

    @Test(arguments: cases)
    func anEmptyParameterNeverCrashesTheImport(_ testCase: Case) throws {
        let db = try cli.makeEmptyDatabase("cards.sqlite", in: directory)
        let file = directory.write("card.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\n\(testCase.line)\r\nEND:VCARD\r\n")
        let result = try cli.run(db: db, ["import", file])
        #expect(result.exitCode == 0, "\(result.exitCode): \(result.stderr)")
        // A phone of one digit is kept, as imported data is, and counted.
        #expect(result.stderr.contains("Kept 1 phone number that typed input would refuse.") == (testCase.imported == "other 1"),
                "\(result.stderr)")
        let exported = try cli.run(db: db, ["export"]).stdout
        let contacts = try JSONSerialization.jsonObject(with: Data(exported.utf8)) as? [[String: Any]] ?? []
        let entries = contacts.flatMap { contact in
            ((contact["emails"] as? [[String: Any]]) ?? []) + ((contact["phones"] as? [[String: Any]]) ?? [])
        }.map { "\($0["type"] ?? "") \($0["value"] ?? "")" }
        #expect(entries == [testCase.imported])
    }

    @Test(arguments: [String(repeating: "[", count: 200_000), "[{\"displayName\":" + String(repeating: "{\"a\":", count: 200_000)])
    func deeplyNestedJSONIsRefusedWithASentence(_ text: String) throws {
        let db = try cli.makeEmptyDatabase("deep.sqlite", in: directory)
        let result = try cli.run(db: db, ["import", directory.write("deep.json", text)])
        #expect(result.exitCode == 65, "\(result.exitCode): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.hasSuffix(".\n"), "\(result.stderr)")
        #expect(try cli.count(db) == 0)
    }
}
