import Foundation
import ContactsDBTestSupport
import GRDB
import Testing
@testable import ContactsDB

@Suite struct ContactStoreTests {
    let store = try! ContactStore.makeEmpty()

    static let ivan = ContactDraft(
        firstName: "  Иван ", lastName: "Петров", age: 41,
        phones: [Phone(type: "Mobile", value: "+7 912  345-67-89"), Phone(type: "Dacha", value: "8 (495) 123-45-67")],
        emails: [Email(type: "work", value: "ivan@example.ru")],
        addresses: [Address(type: "home", street1: "ул. Ленина, 1", city: "Москва", zipcode: "101000", country: "Russia")],
        messengers: [Messenger(service: "Telegram", handle: "@ivanp")])

    // MARK: - CRUD

    /// An import writes without foreign key checks (each child row follows
    /// the contact whose key it takes) and leaves the connection checking
    /// them, after a failed import too: a delete still takes the phones.
    @Test func anImportLeavesForeignKeysChecked() throws {
        let phoned = #"[{"id": "a", "firstName": "A", "phones": [{"type": "mobile", "value": "+14155550100"}]}]"#
        try store.importContacts(Data(phoned.utf8), source: "a.json")
        #expect(captureError { try store.importContacts(Data(#"[{"firstName": "B"}, {"age": 5000}]"#.utf8), source: "b.json") } != nil)
        #expect(try store.read { db in try Int.fetchOne(db, sql: "PRAGMA foreign_keys") } == 1)
        try store.delete(ids: ["a"])
        #expect(try store.rowCount("phone") == 0)
    }

    @Test func addStoresTidiedFieldsAndDerivedOnes() throws {
        let contact = try store.add(Self.ivan)
        #expect(contact.firstName == "Иван")
        #expect(contact.phones.map(\.type) == ["mobile", "Dacha"])
        #expect(contact.phones.map(\.value) == ["+7 912 345-67-89", "8 (495) 123-45-67"])
        #expect(contact.phones.map(\.e164) == ["+79123456789", "+74951234567"])
        #expect(contact.messengers == [Messenger(service: "telegram", handle: "@ivanp")])
        #expect(contact.displayName == "Иван Петров")
        #expect(contact.sortName == "Петров Иван")
        #expect(contact.sectionKey == "П")
        #expect(try store.contact(id: contact.id) == contact)
    }

    @Test func childrenKeepTheirOrder() throws {
        let phones = (0..<12).map { Phone(value: "+1 415 555 01\(String(format: "%02d", 99 - $0))") }
        let contact = try store.add(ContactDraft(firstName: "Many", phones: phones))
        #expect(try store.contact(id: contact.id)?.phones.map(\.value) == phones.map(\.value))
    }

    @Test func derivedNamesFollowTheScript() throws {
        let hong = try store.add(ContactDraft(firstName: "길동", lastName: "홍"))
        #expect(hong.displayName == "홍길동")
        #expect(hong.sectionKey == "ㅎ")
        let acme = try store.add(ContactDraft(company: "Acme"))
        #expect(acme.displayName == "Acme")
        #expect(acme.sortName == "Acme")
        let digits = try store.add(ContactDraft(company: "7-Eleven"))
        #expect(digits.sectionKey == "#")
        let yolkin = try store.add(ContactDraft(lastName: "Ёлкин"))
        #expect(yolkin.sectionKey == "Е")
        let angstrom = try store.add(ContactDraft(lastName: "Ångström"))
        #expect(angstrom.sectionKey == "A")
    }

    @Test func updateReplacesOnlyTheFieldsItNames() throws {
        let added = try store.add(Self.ivan)
        let updated = try store.update(id: added.id) { draft in
            draft.company = "Рога и копыта"
            draft.phones = [Phone(type: "work", value: "010-1234-5678")]
        }
        #expect(updated.firstName == "Иван")
        #expect(updated.emails == added.emails)
        #expect(updated.addresses == added.addresses)
        #expect(updated.phones == [Phone(type: "work", value: "010-1234-5678")])
        #expect(updated.company == "Рога и копыта")
        #expect(updated.createdAt == added.createdAt)
        #expect(updated.updatedAt >= added.updatedAt)
        #expect(try store.rowCount("phone") == 1)
    }

    @Test func updateOfUnknownIDFailsAndWritesNothing() throws {
        try store.add(Self.ivan)
        let counts = try store.tableCounts()
        #expect(captureError { try store.update(id: "nobody") { $0.age = 3 } } == .contactsNotFound(ids: ["nobody"]))
        #expect(try store.tableCounts() == counts)
    }

    @Test func deleteTakesChildrenAlong() throws {
        let contact = try store.add(Self.ivan)
        try store.add(ContactDraft(firstName: "Other", phones: [Phone(value: "+1 415 555 0100")]))
        let pk = try store.read { db in try Int.fetchOne(db, sql: "SELECT pk FROM contact WHERE id = ?", arguments: [contact.id]) }
        try store.delete(ids: [contact.id])
        #expect(try store.contact(id: contact.id) == nil)
        for table in ["phone", "email", "address", "messenger", "nameWord"] {
            let orphans = try store.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE contactPk = ?", arguments: [pk])
            }
            #expect(orphans == 0, "\(table) kept rows of a deleted contact")
        }
        #expect(try store.rowCount("contact") == 1)
        #expect(try store.rowCount("phone") == 1)
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT sum(count) FROM sectionCount") } == 1)
        #expect(try store.ids(matching: ContactQuery().filter(.phone("912 345"))).isEmpty)
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM phoneDigits WHERE phoneDigits MATCH '\"555\"'") } == 1)
    }

    @Test func deleteWithOneUnknownIDDeletesNone() throws {
        let a = try store.add(ContactDraft(firstName: "A"))
        let b = try store.add(ContactDraft(firstName: "B"))
        let error = captureError { try store.delete(ids: [a.id, "ghost", b.id]) }
        #expect(error == .contactsNotFound(ids: ["ghost"]))
        #expect(try store.rowCount("contact") == 2)
    }

    @Test func givenIDsAreKeptAndDuplicatesRefused() throws {
        try store.add(ContactDraft(id: "fixed-1", firstName: "A"))
        #expect(try store.contact(id: "fixed-1")?.firstName == "A")
        let counts = try store.tableCounts()
        let error = captureError { try store.add(ContactDraft(id: "fixed-1", firstName: "B")) }
        #expect(error == .duplicateContactID(field: "id", id: "fixed-1"))
        #expect(try store.tableCounts() == counts)
    }

    @Test func addingSeveralIsAllOrNothing() throws {
        let drafts = [ContactDraft(firstName: "Good"), ContactDraft(firstName: "Bad", age: 1000)]
        #expect(invalidField { try store.add(drafts) } == "contacts[1].age")
        #expect(try store.rowCount("contact") == 0)
    }

    // MARK: - Validation

    /// Each rule of validation (docs/cli.md, "Editing"), with the field its
    /// error must name.
    static let invalidDrafts: [(ContactDraft, String)] = [
        (ContactDraft(firstName: "  ", lastName: "\t", company: ""), "firstName"),
        (ContactDraft(firstName: "A", age: -1), "age"),
        (ContactDraft(firstName: "A", age: 1000), "age"),
        (ContactDraft(firstName: "A", phones: [Phone(value: "12-34")]), "phones[0].value"),
        (ContactDraft(firstName: "A", phones: [Phone(value: "+1 415 555 0100"), Phone(value: "1234567890123456")]), "phones[1].value"),
        (ContactDraft(firstName: "A", phones: [Phone(value: "+7 912 abc 67 89")]), "phones[0].value"),
        (ContactDraft(firstName: "A", phones: [Phone(value: "7+912 345 67 89")]), "phones[0].value"),
        (ContactDraft(firstName: "A", phones: [Phone(value: "+7 912 345/67/89")]), "phones[0].value"),
        (ContactDraft(firstName: "A", emails: [Email(value: "no-at-sign.example.com")]), "emails[0].value"),
        (ContactDraft(firstName: "A", emails: [Email(value: "two@@example.com")]), "emails[0].value"),
        (ContactDraft(firstName: "A", emails: [Email(value: "@example.com")]), "emails[0].value"),
        (ContactDraft(firstName: "A", emails: [Email(value: "a@localhost")]), "emails[0].value"),
        (ContactDraft(firstName: "A", emails: [Email(value: "a b@example.com")]), "emails[0].value"),
        (ContactDraft(firstName: "A", emails: [Email(value: "a\u{00A0}b@example.com")]), "emails[0].value"),
        (ContactDraft(firstName: "A", emails: [Email(value: "a@exam\u{2003}ple.com")]), "emails[0].value"),
        (ContactDraft(firstName: "A", emails: [Email(value: "a@example..com")]), "emails[0].value"),
        (ContactDraft(firstName: "A", messengers: [Messenger(service: "icq", handle: "123")]), "messengers[0].service"),
        (ContactDraft(firstName: "A", messengers: [Messenger(service: "telegram", handle: "  ")]), "messengers[0].handle"),
        (ContactDraft(firstName: "A", addresses: [Address()]), "addresses[0]"),
        (ContactDraft(firstName: String(repeating: "x", count: 1001)), "firstName"),
    ]

    @Test(arguments: invalidDrafts.indices)
    func invalidInputIsRefusedNamingTheFieldAndWritingNothing(_ index: Int) throws {
        let (draft, field) = Self.invalidDrafts[index]
        let existing = try store.add(Self.ivan)
        let counts = try store.tableCounts()
        #expect(invalidField { try store.add(draft) } == field)
        #expect(invalidField { try store.update(id: existing.id) { $0 = draft } } == field)
        #expect(try store.tableCounts() == counts)
        #expect(try store.contact(id: existing.id) == existing)
    }

    @Test func validationMessagesSayWhatIsWrong() {
        let error = captureError { try store.add(ContactDraft(firstName: "A", phones: [Phone(value: "12-34")])) }
        #expect(error?.errorDescription == "phones[0].value: \"12-34\" has 4 digits; a phone needs 9 to 15.")
    }

    /// The byte-level control check agrees with Unicode's Cc category over
    /// U+0000–U+00FF, and names the code point.
    @Test func controlCharactersAreExactlyUnicodesCc() throws {
        for value in 0...0xFF {
            // White space, control or not, is tidied into spaces first.
            guard let scalar = Unicode.Scalar(value), !scalar.properties.isWhitespace else { continue }
            let name = "A" + String(Character(scalar)) + "B"
            let error = captureError { try store.add(ContactDraft(firstName: name, company: "C\(value)")) }
            if scalar.properties.generalCategory == .control {
                #expect(error?.errorDescription == String(format: "firstName: contains the control character U+%04X; remove it.", value),
                        "U+\(String(value, radix: 16))")
            } else {
                #expect(error == nil, "U+\(String(value, radix: 16)): \(String(describing: error))")
            }
        }
    }

    @Test func trimmingSkipsOnlyTextsWithoutSpaceAtTheEnds() {
        for text in ["", "a", " a", "a ", "\u{00A0}a\u{2003}", "\ta\n", "a b", "\u{3000}", "Ёлка", "x\u{85}"] {
            #expect(Text.trimmed(text) == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
            #expect(Text.trimmed(text, in: .whitespaces) == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
        }
    }

    @Test func validEdgeCasesAreAccepted() throws {
        let contact = try store.add(ContactDraft(
            company: "Solo", age: 0,
            phones: [Phone(value: "123456789"), Phone(value: "+123 456 789 012 345"), Phone(value: "(02) 123.4567")],
            emails: [Email(value: "x@a.b"), Email(value: "jürgen@bücher.de")],
            messengers: MessengerService.allCases.map { Messenger(service: $0.rawValue.uppercased(), handle: "h") }))
        #expect(contact.messengers.map(\.service) == MessengerService.allCases.map(\.rawValue))
        #expect(try store.add(ContactDraft(firstName: "Old", age: 999)).age == 999)
    }
}

/// A database deleted or replaced under a process that has it open takes
/// no write: it would go to a file no one can open again.
@Suite struct DeletedDatabaseTests {
    let directory = TemporaryDirectory()

    @Test(arguments: [false, true])
    func aWriteToADatabaseDeletedOrReplacedUnderTheStoreFails(_ replaced: Bool) throws {
        let path = directory.path("contacts.sqlite")
        let store = try ContactStore.open(at: path)
        try store.add(ContactDraft(firstName: "Before"))
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        if replaced { _ = try ContactStore.open(at: path) }
        let error = captureError { try store.add(ContactDraft(firstName: "Lost")) }
        guard case let .databaseUnavailable(failing, reason)? = error else {
            Issue.record("expected databaseUnavailable, got \(String(describing: error))")
            return
        }
        #expect(failing == path && reason.contains("deleted or replaced"))
        // The engine's own settings are written through the same check.
        #expect(captureError { _ = try store.replaceCalendarFeedToken() } != nil)
        if replaced { #expect(try ContactStore.open(at: path).contacts(matching: ContactQuery().filter(.namePrefix("lost"))).isEmpty) }
    }
}
