import Foundation
import Testing
@testable import ContactsDB

@Suite struct VCardTests {
    func importing(_ text: String, skippingInvalid: Bool = false) throws -> (ContactStore, ImportReport) {
        let store = try ContactStore.makeEmpty()
        let report = try store.importContacts(from: [.data(Data(text.utf8), source: "cards.vcf")], skippingInvalid: skippingInvalid)
        return (store, report)
    }

    func all(_ store: ContactStore) throws -> [Contact] { try store.contacts(matching: ContactQuery()) }

    @Test(arguments: VCardVersion.allCases)
    func exportImportsAgainWithEveryField(_ version: VCardVersion) throws {
        let store = try ContactStore.makeEmpty()
        var drafts = Array(SyntheticContacts(count: 150, seed: 31))
        drafts[0].company = "Smith, Jones; \\Partners\\"
        drafts[1].phones = [Phone(type: "Dacha", value: "+7 912 000-00-01")]
        drafts[2].firstName = String(repeating: "Ёжик ", count: 30)  // folds over many lines
        drafts[3].addresses = [Address(type: "Summer house", street1: "a,b;c", city: "서울", country: "대한민국")]
        try store.add(drafts)
        let exported = try all(store)
        let text = exported.map { $0.vCard(version: version) }.joined()
        #expect(text.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })

        let (copy, report) = try importing(text)
        #expect(report.imported == 150 && report.extraProperties.isEmpty && report.unusual.isEmpty)
        #expect(try all(copy).map(\.draft) == exported.map(\.draft))
    }

    @Test func readsVersion21QuotedPrintableCharsetsAndBareTypes() throws {
        let card = """
            BEGIN:VCARD\r
            VERSION:2.1\r
            N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=D0=9F=D0=B5=D1=82=D1=80=D0=BE=D0=B2;=D0=98=D0=B2=D0=B0=D0=BD;;;\r
            FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=D0=98=D0=B2=D0=B0=D0=BD =D0=9F=D0=B5=D1=82=\r
            =D1=80=D0=BE=D0=B2\r
            TEL;CELL;PREF:+7 912 345-67-89\r
            TEL;HOME;VOICE:8 495 123-45-67\r
            ORG;CHARSET=WINDOWS-1251;ENCODING=QUOTED-PRINTABLE:=D0=EE=E3=E0 =E8 =EA=EE=EF=FB=F2=E0\r
            EMAIL;PREF;INTERNET:ivan@example.ru\r
            END:VCARD\r

            """
        let (store, _) = try importing(card)
        let ivan = try #require(try all(store).first)
        #expect(ivan.firstName == "Иван" && ivan.lastName == "Петров")
        #expect(ivan.company == "Рога и копыта")
        #expect(ivan.phones == [Phone(type: "mobile", value: "+7 912 345-67-89", preferred: true),
                                Phone(type: "home", value: "8 495 123-45-67")])
        #expect(ivan.emails == [Email(type: "other", value: "ivan@example.ru", preferred: true)])
    }

    @Test func readsApplesLabelsFoldingEscapesAndURIs() throws {
        let card = """
            BEGIN:VCARD
            VERSION:3.0
            PRODID:-//Apple Inc.//iPhone OS 17.0//EN
            N:Smith;John;;;
            FN:John Smith
            ORG:Smith\\, Jones & Co.;Sales
            item1.TEL;type=pref:+1 415 555 0132
            item1.X-ABLabel:_$!<Mobile>!$_
            item2.TEL:+1 415 555 0199
            item2.X-ABLabel:Cottage
            EMAIL;type=INTERNET;type=WORK;type=pref:john@smith.exa
             mple
            ADR;TYPE=WORK:;Suite 5;1 Main St\\nBack door;Springfield;IL;62701;USA
            IMPP;X-SERVICE-TYPE=Telegram:x-apple:@jsmith
            IMPP:skype:john.smith
            BDAY:1980-01-01
            NOTE:Met at the conference\\, 2019
            PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRg==
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            FN:Anna Müller
            N:Müller;Anna;;;
            TEL;VALUE=uri;TYPE="voice,cell":tel:+49-151-2345-6789
            END:VCARD
            """
        let (store, report) = try importing(card)
        let contacts = try all(store)
        let john = try #require(contacts.first { $0.lastName == "Smith" })
        #expect(john.company == "Smith, Jones & Co.")
        #expect(john.phones == [Phone(type: "mobile", value: "+1 415 555 0132", preferred: true),
                                Phone(type: "Cottage", value: "+1 415 555 0199")])
        #expect(john.emails == [Email(type: "work", value: "john@smith.example", preferred: true)])
        #expect(john.addresses.first?.street1 == "1 Main St\nBack door" && john.addresses.first?.street2 == "Suite 5")
        #expect(john.messengers == [Messenger(service: "telegram", handle: "@jsmith"),
                                    Messenger(service: "skype", handle: "john.smith")])
        #expect(john.department == "Sales" && john.birthday == "1980-01-01" && john.note == "Met at the conference, 2019")
        #expect(report.unusual.messengers == 1)
        // An inline photo is the contact's photo, kept as given though it
        // is no whole JPEG, and counted.
        #expect(report.extraProperties == [:])
        #expect(john.hasPhoto && john.photo == nil)
        #expect(try store.contact(id: john.id)?.photo == ContactPhoto(mediaType: "image/jpeg", data: Data(base64Encoded: "/9j/4AAQSkZJRg==")!))
        #expect(report.unusual.undecodablePhotos == 1)
        let anna = try #require(contacts.first { $0.lastName == "Müller" })
        #expect(anna.phones == [Phone(type: "mobile", value: "+49-151-2345-6789")])
    }

    @Test func anUnreadableCardStopsTheImportUnlessSkipped() throws {
        let cards = """
            BEGIN:VCARD
            VERSION:3.0
            N:Good;One;;;
            END:VCARD
            BEGIN:VCARD
            VERSION:3.0
            N:Bad;Phone;;;
            TEL:12
            END:VCARD
            BEGIN:VCARD
            VERSION:3.0
            FN:
            END:VCARD
            BEGIN:VCARD
            VERSION:3.0
            N:Cut;Off;;;
            """
        let store = try ContactStore.makeEmpty()
        let error = captureError { _ = try store.importContacts(from: [.data(Data(cards.utf8), source: "cards.vcf")]) }
        guard case let .invalidContact(field, _)? = error else {
            Issue.record("expected the bad card to be named, got \(String(describing: error))")
            return
        }
        // A two-digit number is kept, as imported data is; a card that
        // holds nothing is not.
        #expect(field == "cards.vcf card 3 (line 10)")
        #expect(try store.rowCount("contact") == 0)

        let report = try store.importContacts(from: [.data(Data(cards.utf8), source: "cards.vcf")], skippingInvalid: true)
        #expect(report.imported == 2 && report.skipped.count == 2, "\(report.skipped)")
        #expect(report.skipped.last?.contains("card 4 (line 14)") == true && report.skipped.last?.contains("END:VCARD") == true)
        #expect(try all(store).map(\.displayName) == ["Phone Bad", "One Good"])
        #expect(report.unusual.phones == 1)
    }

    @Test func formatIsToldByContent() {
        func isVCard(_ text: String) -> Bool {
            Data(text.utf8).withUnsafeBytes { VCardReader.isVCard($0.bindMemory(to: UInt8.self)) }
        }
        #expect(isVCard("\u{FEFF}\r\n  begin:vcard\r\nVERSION:4.0"))
        #expect(!isVCard("[{\"firstName\": \"A\"}]"))
    }

    /// Cards come one at a time whatever ends their lines: LF, CR LF, or CR
    /// alone as old Mac exports wrote.
    @Test(arguments: ["\n", "\r\n", "\r"])
    func cardsAreFoundWhateverEndsTheirLines(_ end: String) throws {
        let cards = ["BEGIN:VCARD", "VERSION:3.0", "N:One;Ann;;;", "END:VCARD",
                     "BEGIN:VCARD", "VERSION:3.0", "N:Two;Bo;;;", "TEL:+7 912 345-67-89", "END:VCARD"]
        let (store, report) = try importing(cards.joined(separator: end) + end)
        #expect(report.imported == 2)
        #expect(try store.contacts(matching: ContactQuery()).map(\.displayName).sorted() == ["Ann One", "Bo Two"])
    }

    /// A card that lost its END costs only itself, and the cards after it
    /// are read as cards nested without AGENT are; a folded line that reads
    /// END:VCARD continues its property; an AGENT's card stays nested.
    @Test func cardBoundariesSurviveAMissingEndFoldingAndAgents() throws {
        let lost = ["BEGIN:VCARD", "FN:A", "BEGIN:VCARD", "N:B;Bo;;;", "END:VCARD", "BEGIN:VCARD", "N:C;Cy;;;", "END:VCARD"]
        let (store, report) = try importing(lost.joined(separator: "\r\n") + "\r\n", skippingInvalid: true)
        #expect(report.imported == 2 && report.skipped.count == 1, "\(report.skipped)")
        #expect(report.skipped.first?.contains("card 1 (line 1)") == true)
        #expect(try store.contacts(matching: ContactQuery()).map(\.displayName).sorted() == ["Bo B", "Cy C"])

        let folded = ["BEGIN:VCARD", "N:D;Di;;;", "NOTE:abc", " END:VCARD", "END:VCARD",
                      "BEGIN:VCARD", "N:E;Ed;;;", "AGENT:", "BEGIN:VCARD", "N:Inner;In;;;", "END:VCARD", "END:VCARD"]
        let (other, read) = try importing(folded.joined(separator: "\r\n") + "\r\n")
        #expect(read.imported == 2)
        #expect(try other.contacts(matching: ContactQuery()).map(\.displayName).sorted() == ["Di D", "Ed E"])
    }
}
