import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

/// Bounded fuzzing: mutated contacts files must never crash the importer;
/// each is imported whole or refused with a ContactsDBError and the
/// database unchanged.
@Suite struct HostileInputTests {
    static let base = "[" + SyntheticContacts(count: 12, seed: 8).map(\.jsonText).joined(separator: ",\n") + "]"

    static let insertions: [[UInt8]] = [
        [0x00], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0x22], [0x5C], [0x7B], [0x5B], [0x5D], [0x7D], [0x2C], [0x3A],
        Array("\\u0000".utf8), Array("\\ud800".utf8), Array("'; DROP TABLE contact; --".utf8), Array("%_%".utf8),
        Array(String(repeating: "x", count: 5000).utf8), Array(String(repeating: "[", count: 200).utf8),
        Array("1e999".utf8), Array("-0".utf8), Array("null".utf8), Array("\"age\": 12".utf8),
    ]

    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        for _ in 0...random.below(3) {
            let at = random.below(bytes.count + 1)
            switch random.below(5) {
            case 0 where at < bytes.count:
                bytes[at] = UInt8(random.below(256))
            case 1:
                bytes.insert(contentsOf: insertions[random.below(insertions.count)], at: at)
            case 2:
                bytes.removeSubrange(at..<min(bytes.count, at + random.below(40)))
            case 3:
                bytes = Array(bytes.prefix(at))
            default:
                let end = min(bytes.count, at + random.below(200))
                bytes.insert(contentsOf: bytes[at..<end], at: end)
            }
        }
        return bytes
    }

    @Test func mutatedFilesAreImportedWholeOrRefusedCleanly() throws {
        var random = SplitMix64(seed: 2026)
        var outcomes = (imported: 0, refused: 0)
        var store = try ContactStore.makeEmpty()
        for trial in 0..<2000 {
            let counts = try store.tableCounts()
            let bytes = Self.mutate(Array(Self.base.utf8), &random)
            do {
                try store.importContacts(Data(bytes), source: "fuzz.json")
                outcomes.imported += 1
                store = try ContactStore.makeEmpty()  // the file's ids are taken now
            } catch let error as ContactsDBError {
                outcomes.refused += 1
                #expect(!(error.errorDescription ?? "").isEmpty)
                #expect(try store.tableCounts() == counts, "trial \(trial) wrote after \(error)")
            }
        }
        // Both paths were exercised: the fuzzing was neither all-valid nor all-broken.
        #expect(outcomes.imported > 20 && outcomes.refused > 1000, "\(outcomes)")
        print("fuzzed 2000 files: \(outcomes.imported) imported whole, \(outcomes.refused) refused")
    }

    @Test func deepNestingAndHugeValuesAreRefusedWithAReason() throws {
        let store = try ContactStore.makeEmpty()
        let deep = "[{\"sortName\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}]"
        guard case .malformedJSON? = captureError({ try store.importContacts(Data(deep.utf8), source: "deep.json") }) else {
            Issue.record("deep nesting was not refused as malformed")
            return
        }
        let huge = "[{\"firstName\": \"" + String(repeating: "я", count: 50_000) + "\"}]"
        #expect(invalidField { try store.importContacts(Data(huge.utf8), source: "huge.json") } == "contacts[0].firstName")
        // One letter and 40,000 accents: one grapheme, 80 KB, past the
        // 64 KiB an imported text may hold.
        let stacked = "[{\"firstName\": \"e" + String(repeating: "\u{301}", count: 40_000) + "\"}]"
        #expect(invalidField { try store.importContacts(Data(stacked.utf8), source: "stacked.json") } == "contacts[0].firstName")
        let nul = #"[{"firstName": "A\u0000B"}]"#
        #expect(invalidField { try store.importContacts(Data(nul.utf8), source: "nul.json") } == "contacts[0].firstName")
        let badUTF8 = Data([0x5B, 0x7B, 0x22, 0x66, 0x69, 0x72, 0x73, 0x74, 0x4E, 0x61, 0x6D, 0x65, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D, 0x5D])
        guard case .malformedJSON? = captureError({ try store.importContacts(badUTF8, source: "utf8.json") }) else {
            Issue.record("invalid UTF-8 was not refused as malformed")
            return
        }
        #expect(try store.rowCount("contact") == 0)
    }

    @Test func sqlMetacharactersAreStoredAndFoundLiterally() throws {
        let store = try ContactStore.makeEmpty()
        let nasty = "O'Neil\"; DROP TABLE contact; -- 100%_off"
        let contact = try store.add(ContactDraft(
            firstName: nasty, lastName: "x%y_z", company: nasty,
            emails: [Email(value: "o'neil%_x@example.com")],
            addresses: [Address(city: nasty, country: "'; --")],
            messengers: [Messenger(service: "telegram", handle: nasty)]))
        #expect(try store.contact(id: contact.id)?.firstName == nasty)
        let filters: [ContactFilter] = [
            .namePrefix("o'neil\""), .namePrefix("x%y_z"), .companyContains("; drop table"), .companyContains("%_off"),
            .emailContains("'neil%_"), .cityContains("\"; drop"), .countryContains("'; --"),
        ]
        for filter in filters {
            #expect(try store.ids(matching: ContactQuery().filter(filter)) == [contact.id], "\(filter)")
        }
        try store.add(ContactDraft(firstName: "Plain", company: "100 offers"))
        #expect(try store.ids(matching: ContactQuery().filter(.companyContains("%"))) == [contact.id])
        #expect(try store.ids(matching: ContactQuery().filter(.companyContains("_"))) == [contact.id])
        #expect(try store.rowCount("contact") == 2)
    }
}
