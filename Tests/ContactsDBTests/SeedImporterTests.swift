import ContactsDBTestSupport
import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

@Suite struct SeedImporterTests {
    let store = try! ContactStore.makeEmpty()

    static let valid = """
        [{"id": "a", "firstName": "Иван", "lastName": "Петров", "company": null, "age": 34,
          "phones": [{"type": "mobile", "value": "+7 912 345-67-89"}],
          "emails": [{"type": "work", "value": "ivan@example.ru"}],
          "addresses": [{"type": "home", "street1": "ул. Ленина, 1", "street2": "", "city": "Москва",
                         "state": "", "zipcode": "101000", "country": "Russia"}],
          "messengers": [{"service": "telegram", "handle": "@ivanp"}]},
         {"firstName": "Bob"}]
        """

    @Test func importsAnArrayOrAContactsObject() throws {
        #expect(try store.importContacts(Data(Self.valid.utf8), source: "a.json") == 2)
        let ivan = try #require(try store.contact(id: "a"))
        #expect(ivan.addresses.first?.city == "Москва")
        #expect(ivan.messengers == [Messenger(service: "telegram", handle: "@ivanp")])
        let wrapped = #"{"contacts": [{"company": "Acme"}]}"#
        #expect(try store.importContacts(Data(wrapped.utf8), source: "b.json") == 1)
        #expect(try store.rowCount("contact") == 3)
    }

    /// A bad record anywhere: nothing imported, the error names record and field.
    static let badFiles: [(String, String)] = [
        (#"[{"firstName": "A"}, {"firstName": "B", "phones": [{"value": ""}]}]"#, "contacts[1].phones[0].value"),
        (#"[{"firstName": "A"}, {"firstName": "B", "nickName": "x"}]"#, "contacts[1].nickName"),
        (#"[{"firstName": "A", "phones": [{"value": "+7 912 345 67 89", "kind": "x"}]}]"#, "contacts[0].phones[0].kind"),
        (#"[{"firstName": "A", "age": "34"}]"#, "contacts[0].age"),
        (#"[{"firstName": "A", "age": 34.5}]"#, "contacts[0].age"),
        (#"[{"firstName": "A", "emails": [{"type": "home"}]}]"#, "contacts[0].emails[0].value"),
        (#"[{"firstName": "A"}, {"company": "  "}]"#, "contacts[1]"),
        (#"[{"id": "x", "firstName": "A"}, {"id": "x", "firstName": "B"}]"#, "contacts[1].id"),
        (#"[{"firstName": "A"}, 42]"#, "contacts[1]"),
    ]

    @Test(arguments: badFiles.indices)
    func oneBadRecordImportsNothingAndIsNamed(_ index: Int) throws {
        let (json, field) = Self.badFiles[index]
        try store.add(ContactDraft(firstName: "Before"))
        let counts = try store.tableCounts()
        let error = captureError { try store.importContacts(Data(json.utf8), source: "bad.json") }
        switch error {
        case let .invalidContact(named, _)?, let .contactExists(named, _)?:
            #expect(named == field)
        default:
            Issue.record("expected an error naming \(field), got \(String(describing: error))")
        }
        #expect(try store.tableCounts() == counts)
    }

    static let malformed: [(String, Int, Int)] = [
        ("[{\"firstName\": \"A\"},\n {\"firstName\": \"B\",}]", 2, 20),
        ("[{\"firstName\": \"A\"}\n", 2, 1),
        ("", 1, 1),
        ("[{\"firstName\": \"A\"}] trailing", 1, 22),
        ("{\"people\": []}", 1, 2),
        ("[{\"firstName\": \"unterminated}]", 1, 16),
        ("[{\"firstName\": \"tab\tinside\"}]", 1, 20),
        ("[{\"sortName\": " + String(repeating: "[", count: 100_000), 1, 45),
    ]

    @Test(arguments: malformed.indices)
    func malformedJSONIsReportedWithLineAndColumn(_ index: Int) throws {
        let (json, line, column) = Self.malformed[index]
        let counts = try store.tableCounts()
        let error = captureError { try store.importContacts(Data(json.utf8), source: "broken.json") }
        guard case let .malformedJSON(file, gotLine, gotColumn, _)? = error else {
            Issue.record("expected malformedJSON, got \(String(describing: error))")
            return
        }
        #expect(file == "broken.json")
        #expect(gotLine == line && gotColumn == column)
        #expect(try store.tableCounts() == counts)
    }

    /// A disk that fills mid-import (SQLite's max_page_count): the whole
    /// import rolls back and the error says the disk is full.
    @Test func aFullDiskRollsTheImportBack() throws {
        let directory = TemporaryDirectory()
        var options = ContactStore.Options()
        options.seedsOnFirstOpen = false
        let path = directory.path("full.sqlite")
        let store = try ContactStore.open(at: path, options: options)
        try store.add(ContactDraft(firstName: "Before"))
        let counts = try store.tableCounts()
        try store.writer.inDatabase { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages + 20)")
        }
        let json = "[" + SyntheticContacts(count: 2000, seed: 4).map(\.jsonText).joined(separator: ",") + "]"
        let error = captureError { try store.importContacts(Data(json.utf8), source: "big.json") }
        #expect(error == .diskFull(path: path))
        #expect(try store.tableCounts() == counts)
    }

    /// Files long enough that the reading thread runs batches ahead of the
    /// writing one: the first failure in file order still wins, whichever
    /// thread meets it, and nothing is written.
    @Test func aLargeImportFailsAtItsFirstBadRecordWhicheverThreadFindsIt() throws {
        let drafts = SyntheticContacts(count: 3000, seed: 9).enumerated().map { index, draft in
            var draft = draft
            draft.id = "c\(index)"
            return draft
        }
        func importing(_ drafts: [ContactDraft]) -> ContactsDBError? {
            let json = "[" + drafts.map(\.jsonText).joined(separator: ",") + "]"
            return captureError { try store.importContacts(Data(json.utf8), source: "big.json") }
        }
        let counts = try store.tableCounts()
        var duplicate = drafts, late = drafts, both = drafts
        duplicate[10].id = "c5"
        late[2900].age = 1000
        both[2500].id = "c5"
        both[2900].age = 1000
        #expect(importing(duplicate) == .contactExists(field: "contacts[10].id", id: "c5"))
        guard case let .invalidContact(field, _)? = importing(late) else {
            Issue.record("the late invalid record was not reported")
            return
        }
        #expect(field == "contacts[2900].age")
        #expect(importing(both) == .contactExists(field: "contacts[2500].id", id: "c5"))
        #expect(try store.tableCounts() == counts)
    }

    @Test func derivedFieldsAreAcceptedAndIgnored() throws {
        let json = #"[{"firstName": "Ann", "displayName": "WRONG", "sortName": "ZZZ", "sectionKey": "Q", "sortIndex": 99, "createdAt": "x", "updatedAt": "y", "phones": [{"value": "+7 912 345 67 89", "e164": "+1"}]}]"#
        try store.importContacts(Data(json.utf8), source: "x.json")
        let ann = try #require(try store.contacts(matching: ContactQuery()).first)
        #expect(ann.displayName == "Ann")
        #expect(ann.sectionKey == "A")
        #expect(ann.phones.first?.e164 == "+79123456789")
    }

    @Test func aSeedIsImportedOncePerDatabase() throws {
        let data = Data(Self.valid.utf8)
        guard case let .imported(first) = try store.seed(data, source: "people.json") else {
            Issue.record("the first seed was not imported")
            return
        }
        #expect(first.contactCount == 2)
        #expect(first.checksum == Checksum.sha256(data))
        try store.delete(ids: try store.ids(matching: ContactQuery()))
        #expect(try store.seed(data, source: "renamed.json") == .alreadyImported(first))
        #expect(try store.rowCount("contact") == 0)
        #expect(try store.seedImports() == [first])
    }

    @Test func bundledSeedShowsTheModelOff() throws {
        let seeded = try ContactStore.makeInMemory()
        let contacts = try seeded.contacts(matching: ContactQuery())
        #expect(contacts.count == 10)
        #expect(seeded.openReport.seedImport?.contactCount == 10)
        let scripts = Set(contacts.compactMap { $0.sortName.unicodeScalars.first?.properties.name?.split(separator: " ").first })
        #expect(scripts.isSuperset(of: ["LATIN", "CYRILLIC", "HANGUL"]))
        #expect(contacts.contains { $0.firstName == nil && $0.lastName == nil && $0.company != nil })
        #expect(contacts.contains { $0.phones.isEmpty } && contacts.contains { $0.emails.isEmpty })
        let e164s = contacts.flatMap(\.phones).compactMap(\.e164)
        #expect(e164s.contains { $0.hasPrefix("+7") } && e164s.contains { $0.hasPrefix("+82") }
                && e164s.contains { !$0.hasPrefix("+7") && !$0.hasPrefix("+82") })
        #expect(Set(contacts.flatMap(\.messengers).map(\.service)) == Set(MessengerService.allCases.map(\.rawValue)))
    }

    @Test func firstOpenSeedsOnceEvenAfterEverythingIsDeleted() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("seeded.sqlite")
        let first = try ContactStore.open(at: path)
        #expect(first.openReport.seedImport?.contactCount == 10)
        try first.delete(ids: try first.ids(matching: ContactQuery()))
        let second = try ContactStore.open(at: path)
        #expect(second.openReport.seedImport == nil)
        #expect(try second.rowCount("contact") == 0)
        guard case .alreadyImported = try second.seed(BundledSeed.data, source: BundledSeed.source) else {
            Issue.record("the bundled seed was imported twice")
            return
        }
    }

    @Test func declinedSeedIsNeverImportedOnOpenButCanBeSeeded() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("declined.sqlite")
        var options = ContactStore.Options()
        options.seedsOnFirstOpen = false
        try ContactStore.open(at: path, options: options).declineBundledSeed()
        let reopened = try ContactStore.open(at: path)
        #expect(reopened.openReport.seedImport == nil)
        #expect(try reopened.bundledSeedDeclinedAt() != nil)
        #expect(try reopened.rowCount("contact") == 0)
        guard case .imported = try reopened.seed(BundledSeed.data, source: BundledSeed.source) else {
            Issue.record("an explicit seed of the declined bundled seed did nothing")
            return
        }
        #expect(try reopened.rowCount("contact") == 10)
    }

    @Test func exportImportsAgainWithEveryField() throws {
        try store.add(Array(SyntheticContacts(count: 150, seed: 3)))
        let exported = try store.contacts(matching: ContactQuery())
        let json = "[\n" + exported.map(\.jsonText).joined(separator: ",\n") + "\n]"
        let copy = try ContactStore.makeEmpty()
        try copy.importContacts(Data(json.utf8), source: "export.json")
        let reimported = try copy.contacts(matching: ContactQuery())
        #expect(reimported.map(\.draft) == exported.map(\.draft))
        #expect(reimported.map(\.sortName) == exported.map(\.sortName))
    }
}
