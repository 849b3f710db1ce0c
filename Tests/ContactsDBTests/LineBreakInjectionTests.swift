import Foundation
import Testing
@testable import ContactsDB

/// A line break in a value must stay inside its property: written as `\n`,
/// never raw, so that no imported text can add a property (an `EMAIL` of
/// an attacker's) or a whole card to what is exported and synced.
@Suite struct LineBreakInjectionTests {
    private func importingJSON(_ json: String) throws -> ContactStore {
        let store = try ContactStore.makeEmpty()
        try store.importContacts(from: [.data(Data(json.utf8), source: "contacts.json")])
        return store
    }

    /// The lines a reader that ends a line at CR, LF or both would see,
    /// folded continuations left out.
    private func propertyNames(_ card: String) -> [Substring] {
        card.unicodeScalars.split { $0 == "\r" || $0 == "\n" }.map { Substring(String($0)) }
            .filter { !$0.hasPrefix(" ") }.map { $0.prefix { $0 != ":" && $0 != ";" } }
    }

    @Test(arguments: VCardVersion.allCases)
    func aLoneCarriageReturnInAValueBeginsNoProperty(_ version: VCardVersion) throws {
        let store = try importingJSON(#"""
            [{"id": "eve", "firstName": "Eve\rEMAIL:first@attacker.example", "company": "Acme\r\nTEL:+15550100999",
              "note": "one\rEMAIL:attacker@evil.example\nEND:VCARD\r\nBEGIN:VCARD\rFN:Injected",
              "urls": [{"type": "home", "value": "https://example.org/\rEMAIL:second@attacker.example"}]}]
            """#)
        let eve = try #require(try store.contact(id: "eve"))
        let card = eve.vCard(version: version)
        #expect(propertyNames(card).filter { ["EMAIL", "TEL", "BEGIN", "END"].contains($0) } == ["BEGIN", "END"])

        let copy = try ContactStore.makeEmpty()
        try copy.importContacts(from: [.data(Data(card.utf8), source: "eve.vcf")])
        let read = try #require(try copy.contact(id: "eve"))
        #expect(read.emails.isEmpty && read.phones.isEmpty)
        #expect(read.details.note == "one\nEMAIL:attacker@evil.example\nEND:VCARD\nBEGIN:VCARD\nFN:Injected")
        // Names are tidied on the way in: a line break there is a space.
        #expect(read.company == "Acme TEL:+15550100999")
    }

    @Test(arguments: [
        (#"{"id": "x", "firstName": "X", "extra": ["X-A:b\nEMAIL:attacker@evil.example"]}"#, "extra[0]"),
        (#"{"id": "x", "firstName": "X", "extra": ["X-A:b\rEND:VCARD"]}"#, "extra[0]"),
        (#"{"id": "x", "firstName": "X", "phones": [{"value": "+7 912 345-67-89", "parameters": "X-A=\"a\r\nEMAIL:b\""}]}"#,
         "phones[0].parameters"),
        (#"{"id": "x", "firstName": "X", "photo": {"mediaType": "text/plain\r\nEMAIL:a@b.example", "data": "aGk="}}"#,
         "photo.mediaType"),
    ])
    func anExtraLineParametersOrMediaTypeSpanningLinesIsRefused(_ record: String, _ named: String) throws {
        let store = try ContactStore.makeEmpty()
        let field = invalidField { try store.importContacts(from: [.data(Data("[\(record)]".utf8), source: "c.json")]) }
        #expect(field?.hasSuffix(named) == true, "\(field ?? "no field")")
        #expect(try store.contacts(matching: ContactQuery()).isEmpty)
    }

    @Test func aLineBreakStoredByAnOlderBuildIsWrittenEscaped() {
        var card = VCardWriter.Card(version: .v4, extra: [])
        card.add("X-KEPT;X-P=\"a\r\nb\":one\rEMAIL:attacker@evil.example\nTEL:1")
        #expect(propertyNames(card.text) == ["BEGIN", "X-KEPT", "END"])
    }
}
