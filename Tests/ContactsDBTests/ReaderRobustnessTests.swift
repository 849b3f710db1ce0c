import Foundation
import Testing
@testable import ContactsDB
import ContactsDBFuzzing
import ContactsDBSynthetic

/// The readers never trap: empty vCard parameters, deep JSON nesting and
/// the inputs fuzzing found are read or refused with one sentence.
@Suite struct ReaderRobustnessTests {
    func card(_ line: String) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;Jane;;;\r\n\(line)\r\nEND:VCARD\r\n"
    }

    func readCards(_ text: String) -> [VCardReader.Card] {
        var reader = VCardReader()
        return reader.cards(in: Data(text.utf8), source: "cards.vcf")
    }

    @Test(arguments: ["TEL;:1", "TEL;;:1", "TEL;=:1", "TEL;;;=;:1", "TEL;\"\":1"])
    func anEmptyParameterIsDroppedAndTheValueStillChecked(_ line: String) throws {
        let cards = readCards(card(line))
        #expect(cards.count == 1)
        // "1" is read as the phone, which typed input would refuse as too
        // short (an import keeps it).
        let draft = try cards[0].result.get()
        #expect(draft.phones.map(\.value) == ["1"])
        guard case .invalidContact(let field, _)? = captureError({ try ContactValidator.validated(draft, at: cards[0].path) }) else {
            Issue.record("expected the phone to be refused")
            return
        }
        #expect(field == "cards.vcf card 1 (line 1).phones[0].value")
    }

    @Test func emptyParametersBesideRealOnesKeepTheRealOnes() throws {
        let cards = readCards(card("EMAIL;;TYPE=work:a@b.c\r\nTEL;=;TYPE=cell;:+1 415 555 0100\r\nTEL;=home:+1 415 555 0101"))
        let draft = try cards[0].result.get()
        #expect(draft.emails == [Email(type: "work", value: "a@b.c")])
        #expect(draft.phones.map(\.type) == ["mobile", "home"])
    }

    @Test func emptyParametersImportThroughTheStore() throws {
        let store = try ContactStore.makeEmpty()
        let report = try store.importContacts(from: [.data(Data(card("EMAIL;;TYPE=home:a@b.c").utf8), source: "cards.vcf")])
        #expect(report.imported == 1)
        #expect(try store.contacts(matching: ContactQuery()).first?.emails.map(\.value) == ["a@b.c"])
    }

    @Test func onlyAQuotedPrintableParameterMakesATrailingEqualsSignASoftBreak() {
        let lines = VCardContentLine.logicalLines(Array("""
            NOTE:QUOTED-PRINTABLE=\r
            FN:Jane\r
            N;ENCODING=QUOTED-PRINTABLE:D=\r
            oe;Jane=\r
            ;;;\r
            ORG;QUOTED-PRINTABLE:A=\r
             B\r
            """.utf8))
        #expect(lines.map(\.number) == [1, 2, 3, 6])
        let parsed = lines.compactMap { VCardContentLine($0.bytes, legacyCharset: .windowsCP1252) }
        #expect(parsed.map(\.name) == ["NOTE", "FN", "N", "ORG"])
        // A soft break comes before folding: the indented line goes on
        // the text, its space included (Sony Ericsson's notes need it).
        #expect(parsed.map(\.value) == ["QUOTED-PRINTABLE=", "Jane", "Doe;Jane;;;", "A B"])
    }

    @Test func quotedPrintableDecodesOnlyHexDigits() {
        #expect(VCardContentLine.quotedPrintableBytes(Array("=41=+1=-0=4".utf8)) == Array("A=+1=-0=4".utf8))
    }

    /// The JSON reader takes a string's bytes as the standard library's
    /// `String(validating:)` would, and refuses exactly the ones it refuses:
    /// random runs of the bytes UTF-8 turns on (lead bytes of every length,
    /// continuation bytes, surrogates, overlong and out-of-range leads,
    /// U+FFFD's own bytes), escapes among them.
    @Test func stringsAreTakenExactlyWhenTheyAreUTF8() throws {
        let palette: [[UInt8]] = [
            [0x61], [0x7E], [0x80], [0x8F], [0xBF], [0xC0], [0xC2], [0xC3], [0xDF], [0xE0], [0xE1], [0xED], [0xEF],
            [0xF0], [0xF4], [0xF5], [0xFF], [0xA0], [0x90], [0xEF, 0xBF, 0xBD], [0xF0, 0x9F, 0x98, 0x80],
            Array("é".utf8), Array("Ж".utf8), Array("한".utf8), Array("€".utf8), Array("ab".utf8), Array(" ".utf8),
            Array("\\n".utf8), Array("\\u00e9".utf8),
        ]
        var random = SplitMix64(seed: 31)
        var counts = (taken: 0, refused: 0)
        for _ in 0..<20_000 {
            let pieces = (0...Int(random.next() % 5)).map { _ in palette[Int(random.next() % UInt64(palette.count))] }
            let content = pieces.flatMap { $0 }
            let unescaped = pieces.flatMap { piece -> [UInt8] in
                piece == Array("\\n".utf8) ? [0x0A] : piece == Array("\\u00e9".utf8) ? Array("é".utf8) : piece
            }
            let expected = String(validating: unescaped, as: UTF8.self)
            let json = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
            let read = json.withUnsafeBufferPointer { buffer in
                var reader = JSONReader(bytes: buffer, fileName: "strings.json")
                return try? reader.readString()
            }
            #expect(read == expected, "\(content)")
            if expected == nil { counts.refused += 1 } else { counts.taken += 1 }
        }
        #expect(counts.taken > 1000 && counts.refused > 1000, "\(counts)")
    }

    @Test(arguments: [
        String(repeating: "[", count: 100_000),
        "[{\"displayName\":" + String(repeating: "[", count: 100_000),
        "[{\"displayName\":" + String(repeating: "{\"a\":", count: 100_000),
        "{\"contacts\":[{\"sortName\":" + String(repeating: "[{\"b\":", count: 50_000),
    ])
    func deepJSONNestingIsRefusedWithASentence(_ text: String) {
        let expected = "not valid JSON: nesting deeper than 32 levels; fix the file and try again."
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(bytes: buffer, fileName: "deep.json")
            let error = #expect(throws: ContactsDBError.self) { try reader.skipValue() }
            #expect(error?.localizedDescription.hasSuffix(expected) == true, "\(String(describing: error))")
        }
        // Through the contacts reader, where a derived key's value is skipped.
        guard text.hasPrefix("[{") || text.hasPrefix("{") else { return }
        guard case .failure(let error) = Fuzzing.readJSON(Data(bytes)) else {
            Issue.record("deep nesting was accepted")
            return
        }
        #expect(error.localizedDescription.hasSuffix(expected), "\(error.localizedDescription)")
    }

    // MARK: - Fuzzing's regression corpus

    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/FuzzRegressions")

    static func inputs(_ folder: String) -> [URL] {
        let directory = regressions.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Each input once crashed or hung its fuzz target; replayed through
    /// the same entry point, it must now end in a result or a sentence.
    @Test func theFuzzRegressionCorpusIsReadOrRefusedCleanly() throws {
        var replayed = 0
        for url in Self.inputs("json") {
            let outcome = Fuzzing.readJSON(try Data(contentsOf: url))
            if case .failure(let error) = outcome { #expect(Self.isSentence(error), "\(url.lastPathComponent): \(error)") }
            replayed += 1
        }
        for url in Self.inputs("vcard") {
            let outcome = Fuzzing.readVCard(try Data(contentsOf: url))
            if case .failure(let error) = outcome { #expect(Self.isSentence(error), "\(url.lastPathComponent): \(error)") }
            Fuzzing.roundTripVCard(try Data(contentsOf: url))
            replayed += 1
        }
        for url in Self.inputs("csv") {
            let outcome = Fuzzing.readCSV(try Data(contentsOf: url))
            if case .failure(let error) = outcome { #expect(Self.isSentence(error), "\(url.lastPathComponent): \(error)") }
            Fuzzing.roundTripVCard(try Data(contentsOf: url), isCSV: true)
            replayed += 1
        }
        for url in Self.inputs("dav") {
            let outcome = Fuzzing.readDAV(try Data(contentsOf: url))
            if case .failure(let error) = outcome { #expect(Self.isSentence(error), "\(url.lastPathComponent): \(error)") }
            replayed += 1
        }
        for url in Self.inputs("migrations") {
            let outcome = Fuzzing.checkMigrationRecords(try Data(contentsOf: url))
            if case .failure(let error) = outcome { #expect(Self.isSentence(error), "\(url.lastPathComponent): \(error)") }
            replayed += 1
        }
        #expect(replayed >= 3)
    }

    /// A refusal the CLI can print: a known case, ending as a sentence.
    static func isSentence(_ error: ContactsDBError) -> Bool {
        if case .databaseFailure = error { return false }
        return error.localizedDescription.hasSuffix(".")
    }
}
