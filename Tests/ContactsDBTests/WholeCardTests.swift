import Foundation
import GRDB
import Testing
@testable import ContactsDB

/// The whole card (docs/vcard.md, "vCard and CSV"): every field in and out
/// of every format, the typed/imported validation split, charsets, and the
/// derived fields that follow the richer card.
@Suite struct WholeCardTests {
    /// A draft holding every field of the whole card.
    static var everyField: ContactDraft {
        var draft = ContactDraft(
            id: "urn:uuid:0e5b2d7c-4a55-4c1b-9d2e-7f4ad1c0e001", firstName: "Jane", lastName: "Doe", company: "Acme; Inc",
            age: 41, phones: [Phone(type: "home fax", value: "+1 415 555 0100", parameters: "X-EVOLUTION-UI-SLOT=1"),
                              Phone(type: "iPhone", value: "+1 415 555 0101", preferred: true)],
            emails: [Email(type: "Cottage", value: "jane@example.com", preferred: true)],
            addresses: [Address(type: "work", street1: "1 Main St\nSuite 5", city: "Springfield", zipcode: "62701", country: "USA",
                                poBox: "PO Box 5", preferred: true, parameters: #"GEO="geo:39.8,-89.6""#)],
            messengers: [Messenger(service: "telegram", handle: "@jane", parameters: "TYPE=HOME;TYPE=pref")], groups: ["Friends"])
        draft.namePrefix = "Dr."
        draft.middleName = "Q."
        draft.nameSuffix = "Jr."
        draft.phoneticFirstName = "Jayn"
        draft.phoneticMiddleName = "Kyu"
        draft.phoneticLastName = "Dough"
        draft.nickname = "JJ,Janie"
        draft.formattedName = "Dr. Jane Doe"
        draft.department = "R&D;Lab 3"
        draft.jobTitle = "Chief, Research"
        draft.role = "Lead"
        draft.birthday = "1980-02-29"
        draft.dates = [LabeledValue(type: "anniversary", value: "--06-01"), LabeledValue(type: "First met", value: "2001-09-10")]
        draft.note = "Line one;\nline two, with a \\ backslash"
        draft.urls = [LabeledValue(type: "work", value: "https://acme.example/jane"), LabeledValue(type: "Blog", value: "https://jane.example", parameters: "PREF=2")]
        draft.relations = [Relation(type: "spouse", name: "John Doe"), Relation(type: "Godmother", name: "Ann")]
        draft.socialProfiles = [SocialProfile(service: "twitter", handle: "jdoe", url: "https://twitter.com/jdoe")]
        draft.extra = ["item7.X-CUSTOM;TYPE=foo:bar\\, baz", "X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;JJ;1;;;;;;;;;;;;;"]
        return draft
    }

    /// A field added to the model without a value here would go untested
    /// through every format: each stored property of a draft and of its
    /// details must hold one, but those tested elsewhere.
    @Test func theWholeCardHoldsEveryStoredProperty() {
        // The photo has its own tests (PhotoTests); kind and favorite are
        // never empty; the uid is identity, not a field of a card
        // (SeveralBooksSyncTests).
        let elsewhere: Set = ["photo", "kind", "isFavorite", "details", "uid"]
        let card = Self.everyField
        let children = Array(Mirror(reflecting: card).children) + Array(Mirror(reflecting: card.details).children)
        let empty = children.filter { child in
            guard let label = child.label, !elsewhere.contains(label) else { return false }
            let value = child.value
            if let optional = value as? any OptionalProtocol { return optional.isNone }
            if let collection = value as? any Collection { return collection.isEmpty }
            return false
        }.compactMap(\.label)
        #expect(empty.isEmpty, "fields without a value in the whole card: \(empty)")
    }

    func stored(_ draft: ContactDraft) throws -> (ContactStore, Contact) {
        let store = try ContactStore.makeEmpty()
        let contact = try store.add(draft)
        return (store, contact)
    }

    /// The direct accesses the reader stores with and the writer reads
    /// with reach each column's field as its key path names it, in the
    /// columns' order.
    @Test func eachDetailColumnIsReadIntoItsOwnField() {
        var details = ContactDetails()
        ContactDetailColumns.forEachText(of: &details) { index, text in text = "column \(index)" }
        for (index, column) in ContactDetailColumns.text.enumerated() {
            #expect(details[keyPath: column.field] == "column \(index)", "\(column.key)")
        }
        var read: [String?] = []
        ContactDetailColumns.forEachText(of: &details) { _, text in read.append(text) }
        #expect(read == ContactDetailColumns.text.map { details[keyPath: $0.field] })
    }

    /// Each list of the card is declared whole: its table holds its
    /// columns in order, an entry of it counts as a list held (the reader
    /// skips the tables of a contact that holds none), and it has a vCard
    /// form but `extra`, whose lines are the card's own.
    @Test func eachCardListIsDeclaredWhole() throws {
        let store = try ContactStore.makeEmpty()
        for list in CardList.all {
            let columns = try store.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [list.table])
            }
            #expect(columns == ["contactPk", "position"] + list.columns.map(\.name), "\(list.key)")
            var details = ContactDetails()
            list.set([list.columns.map { _ in "x" }], in: &details)
            #expect(details.hasLists, "\(list.key)")
            #expect(list.count(in: details) == 1, "\(list.key)")
        }
        #expect(VCardLists.all.count == CardList.all.count - 1)
    }

    @Test func everyFieldIsStoredAndReadBack() throws {
        let (store, contact) = try stored(Self.everyField)
        #expect(contact.draft == Self.everyField)
        #expect(try store.contact(id: contact.id)?.draft == Self.everyField)
        // The formatted name is kept as it differs from the derived one.
        #expect(contact.displayName == "Dr. Jane Q. Doe Jr." && contact.formattedName == "Dr. Jane Doe")
    }

    @Test(arguments: VCardVersion.allCases)
    func everyFieldSurvivesVCard(_ version: VCardVersion) throws {
        let (_, contact) = try stored(Self.everyField)
        let text = contact.vCard(version: version)
        let copy = try ContactStore.makeEmpty()
        let report = try copy.importContacts(from: [.data(Data(text.utf8), source: "card.vcf")])
        #expect(report.imported == 1 && report.extraProperties.isEmpty == false)
        #expect(try copy.contact(id: contact.id)?.draft == Self.everyField, "\(text)")
    }

    @Test func everyFieldSurvivesJSON() throws {
        let (_, contact) = try stored(Self.everyField)
        let copy = try ContactStore.makeEmpty()
        _ = try copy.importContacts(Data(("[" + contact.jsonText + "]").utf8), source: "contacts.json")
        #expect(try copy.contact(id: contact.id)?.draft == Self.everyField)
    }

    @Test func typedInputKeepsEveryRuleWhileAnImportKeepsWhatItCanRead() throws {
        var draft = ContactDraft(phones: [Phone(value: "*100#"), Phone(value: "900")], emails: [Email(value: "root@localhost")],
                                 messengers: [Messenger(service: "skype", handle: "jane.d")])
        let store = try ContactStore.makeEmpty()
        #expect(invalidField { _ = try store.add(draft) } == "firstName")
        draft.nickname = "Jay"
        #expect(invalidField { _ = try store.add(draft) } == "firstName")
        draft.firstName = "Jane"
        #expect(invalidField { _ = try store.add(draft) } == "phones[0].value")
        #expect(try store.rowCount("contact") == 0)

        draft.firstName = nil
        let report = try store.importContacts(from: [.data(Data(("[" + draft.jsonText + "]").utf8), source: "book.json")])
        #expect(report.imported == 1)
        #expect(report.unusual == { var counts = UnusualValues(); counts.phones = 2; counts.emails = 1; counts.messengers = 1
                                     counts.unnamedContacts = 1; return counts }())
        #expect(report.unusual.summary == "2 phone numbers, 1 email address, 1 messenger of another service and 1 contact without a first name, last name or company")
        let kept = try #require(try store.contacts(matching: ContactQuery()).first)
        #expect(kept.phones.map(\.value) == ["*100#", "900"] && kept.phones.allSatisfy { $0.e164 == nil })
        #expect(kept.displayName == "Jay")

        // What no reader can make sense of is still refused.
        let nameless = #"[{"phones": [], "emails": []}]"#
        #expect(invalidField { _ = try store.importContacts(Data(nameless.utf8), source: "bad.json") } == "contacts[0]")
        let badDate = #"[{"firstName": "A", "birthday": "1990/04/12"}]"#
        #expect(invalidField { _ = try store.importContacts(Data(badDate.utf8), source: "bad.json") } == "contacts[0].birthday")
        #expect(try store.rowCount("contact") == 1)
    }

    @Test func displayNameFallsBackThroughNicknameCompanyPhoneAndEmail() throws {
        let store = try ContactStore.makeEmpty()
        func imported(_ json: String) throws -> Contact {
            let id = UUID().uuidString
            _ = try store.importContacts(Data("[{\"id\": \"\(id)\", \(json)}]".utf8), source: "c.json")
            return try #require(try store.contact(id: id))
        }
        #expect(try imported(#""nickname": "Bee", "company": "Hive""#).displayName == "Bee")
        #expect(try imported(#""company": "Hive", "phones": [{"value": "900"}]"#).displayName == "Hive")
        #expect(try imported(#""phones": [{"value": "900"}], "emails": [{"value": "a@b.c"}]"#).displayName == "900")
        #expect(try imported(#""emails": [{"value": "a@b.c"}]"#).displayName == "a@b.c")
        #expect(try imported(#""formattedName": "Mx. Chosen Name", "emails": [{"value": "c@b.c"}]"#).displayName == "Mx. Chosen Name")
    }

    @Test func phoneticNamesAndOrganizationsDecideTheOrder() throws {
        let store = try ContactStore.makeEmpty()
        var yamada = ContactDraft(id: "yamada", firstName: "太郎", lastName: "山田")
        yamada.phoneticFirstName = "Taro"
        yamada.phoneticLastName = "Yamada"
        var kana = ContactDraft(id: "kana", firstName: "花子", lastName: "佐藤")
        kana.phoneticLastName = "さとう"
        var acme = ContactDraft(id: "acme", firstName: "Zed", lastName: "Zulu", company: "Acme")
        acme.kind = .organization
        let baker = ContactDraft(id: "baker", firstName: "Bob", lastName: "Baker")
        _ = try store.add([yamada, kana, acme, baker])
        let contacts = try store.contacts(matching: ContactQuery())
        #expect(contacts.map(\.id) == ["acme", "baker", "yamada", "kana"])
        #expect(contacts.map(\.sectionKey) == ["A", "B", "Y", "#"])
        #expect(contacts[0].displayName == "Acme" && contacts[2].displayName == "山田太郎")
    }

    @Test func nameSearchFindsMiddleNamesNicknamesAndPhoneticNames() throws {
        let store = try ContactStore.makeEmpty()
        var draft = ContactDraft(id: "j", firstName: "Jane", lastName: "Doe")
        draft.middleName = "Quinn"
        draft.nickname = "Sparrow"
        draft.phoneticLastName = "Dough"
        _ = try store.add(draft)
        for word in ["quinn", "spar", "dough", "jane"] {
            #expect(try store.contacts(matching: ContactQuery().filter(.namePrefix(word))).map(\.id) == ["j"], "\(word)")
        }
        #expect(try store.contacts(matching: ContactQuery().filter(.namePrefix("lead"))).isEmpty)
    }

    // MARK: - Charsets

    func importedCards(_ bytes: [UInt8]) throws -> [Contact] {
        let store = try ContactStore.makeEmpty()
        _ = try store.importContacts(from: [.data(Data(bytes), source: "cards.vcf")])
        return try store.contacts(matching: ContactQuery())
    }

    @Test func shiftJISIsDecodedBeforeEscapesSoATrailByteIsNoBackslash() throws {
        // ソ is 0x83 0x5C in Shift_JIS: its trail byte is a backslash in ASCII.
        let name = "ソニー;表示"
        var bytes = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=SHIFT_JIS:".utf8)
        bytes += Array(name.data(using: .shiftJIS)!)
        bytes += Array("\r\nNOTE:".utf8) + Array("能力".data(using: .shiftJIS)!) + Array("\r\nEND:VCARD\r\n".utf8)
        let contact = try #require(try importedCards(bytes).first)
        #expect(contact.lastName == "ソニー" && contact.firstName == "表示")
        // No CHARSET on NOTE: the file's evident legacy charset reads it.
        #expect(contact.note == "能力")
    }

    @Test func eightBitTextWithoutACharsetIsReadByContent() throws {
        let card = "BEGIN:VCARD\r\nVERSION:2.1\r\nN;ENCODING=QUOTED-PRINTABLE:Iksi=F1ski;Jan\r\nNOTE;ENCODING=QUOTED-PRINTABLE:Z=C3=BCrich\r\nEND:VCARD\r\n"
        let contact = try #require(try importedCards(Array(card.utf8)).first)
        #expect(contact.lastName == "Iksiñski" && contact.note == "Zürich")
        #expect(!contact.jsonText.contains("\u{FFFD}"))
    }

    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian])
    func unicodeFilesWithAByteOrderMarkImport(_ encoding: String.Encoding) throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Müller;Jürgen;;;\r\nFN:Jürgen Müller\r\nEND:VCARD\r\n"
        let bom: [UInt8] = switch encoding {
        case .utf16LittleEndian: [0xFF, 0xFE]
        case .utf16BigEndian: [0xFE, 0xFF]
        default: [0xFF, 0xFE, 0x00, 0x00]
        }
        let contact = try #require(try importedCards(bom + Array(card.data(using: encoding)!)).first)
        #expect(contact.lastName == "Müller" && contact.firstName == "Jürgen")
    }

    @Test func aNestedAgentCardStaysInsideItsCard() throws {
        let card = """
            BEGIN:VCARD\r
            VERSION:2.1\r
            N:Boss;Big\r
            AGENT:\r
            BEGIN:VCARD\r
            VERSION:2.1\r
            N:Helper;Little\r
            TEL:+1 415 555 0100\r
            END:VCARD\r
            TEL:+1 415 555 0199\r
            END:VCARD\r

            """
        let contacts = try importedCards(Array(card.utf8))
        #expect(contacts.count == 1)
        let boss = try #require(contacts.first)
        #expect(boss.phones.map(\.value) == ["+1 415 555 0199"])
        #expect(boss.extra == [#"AGENT:BEGIN:VCARD\nVERSION:2.1\nN:Helper\;Little\nTEL:+1 415 555 0100\nEND:VCARD"#])
    }

    @Test func datesAreReadInEveryFormProducersWrite() throws {
        let forms = ["19750412": "1975-04-12", "1975-04-12": "1975-04-12", "--0412": "--04-12", "--04-12": "--04-12"]
        for (written, stored) in forms {
            let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nBDAY:\(written)\r\nEND:VCARD\r\n"
            #expect(try importedCards(Array(card.utf8)).first?.birthday == stored, "\(written)")
        }
        let apple = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nBDAY;X-APPLE-OMIT-YEAR=1604:1604-04-12\r\nEND:VCARD\r\n"
        #expect(try importedCards(Array(apple.utf8)).first?.birthday == "--04-12")
        // A text birthday is no date: kept as written.
        let text = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:A\r\nBDAY;VALUE=text:circa 1800\r\nEND:VCARD\r\n"
        let contact = try #require(try importedCards(Array(text.utf8)).first)
        #expect(contact.birthday == nil && contact.extra == ["BDAY;VALUE=text:circa 1800"])
    }

    // MARK: - What the model has no field for

    @Test func parametersWithoutAFieldTravelWithTheirProperty() throws {
        let card = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:Petra Novak\r
            TEL;X-EVOLUTION-UI-SLOT=2;TYPE=CELL:+420 603 555 011\r
            EMAIL;PREF=2;TYPE=WORK:petra@planet.example\r
            IMPP;X-SERVICE-TYPE=Telegram;type=HOME;type=pref:x-apple:petra\r
            X-MESSAGING/xmpp-All:petra@jabber.example\r
            END:VCARD\r

            """
        let store = try ContactStore.makeEmpty()
        _ = try store.importContacts(from: [.data(Data(card.utf8), source: "card.vcf")])
        let contact = try #require(try store.contacts(matching: ContactQuery()).first)
        // In the model, so filters and search see them, with what it has no field for.
        #expect(contact.phones == [Phone(type: "mobile", value: "+420 603 555 011", parameters: "X-EVOLUTION-UI-SLOT=2")])
        #expect(contact.emails == [Email(type: "work", value: "petra@planet.example", parameters: "PREF=2")])
        #expect(contact.messengers == [Messenger(service: "telegram", handle: "petra", parameters: "type=HOME;type=pref")])
        #expect(try store.count(matching: ContactQuery().filter(.has([.phone, .telegram]))) == 1)
        // KAddressBook's name with a slash is no RFC name, but it is kept.
        #expect(contact.extra == ["X-MESSAGING/xmpp-All:petra@jabber.example"])
        for version in VCardVersion.allCases {
            let text = contact.vCard(version: version)
            #expect(text.contains("X-EVOLUTION-UI-SLOT=2:+420 603 555 011\r\n") && text.contains(";PREF=2:petra@planet.example")
                    && text.contains(";type=HOME;type=pref:telegram:petra\r\n") && text.contains("X-MESSAGING/xmpp-All:"), "\(text)")
        }
    }

    @Test func typedParametersAndExtraNamesAreChecked() throws {
        let store = try ContactStore.makeEmpty()
        var draft = ContactDraft(firstName: "Jane", phones: [Phone(value: "+1 415 555 0100", parameters: "X-SLOT=1:x")])
        #expect(invalidField { _ = try store.add(draft) } == "phones[0].parameters")
        draft.phones[0].parameters = #"X-NOTE="a;b:c";X-SLOT=1"#
        draft.extra = ["X-MESSAGING/xmpp-All:jane@jabber.example"]
        #expect(invalidField { _ = try store.add(draft) } == "extra[0]")
        draft.extra = []
        #expect(try store.add(draft).phones.first?.parameters == #"X-NOTE="a;b:c";X-SLOT=1"#)
    }
}

/// Whether a value of any optional type is nil, for `Mirror`'s untyped values.
private protocol OptionalProtocol {
    var isNone: Bool { get }
}

extension Optional: OptionalProtocol {
    var isNone: Bool { self == nil }
}
