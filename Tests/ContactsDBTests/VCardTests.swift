import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

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

    // MARK: - Real producers' habits

    /// iPhone exports of the iOS 6 era end lines in CR CR LF: a folded
    /// photo keeps every line.
    @Test func crCRLFLineEndsKeepAFoldedPhotoWhole() throws {
        let photo = Data((0..<3_000).map { UInt8($0 % 251) })
        let base64 = Array(photo.base64EncodedString())
        let folded = stride(from: 0, to: base64.count, by: 74).map { " " + String(base64[$0..<min($0 + 74, base64.count)]) }
        let lines = ["BEGIN:VCARD", "VERSION:3.0", "N:Lee;Ann;;;", "PHOTO;ENCODING=b;TYPE=JPEG:"] + folded
            + ["TEL;type=CELL:+1 415 555 0100", "END:VCARD"]
        let (store, report) = try importing(lines.joined(separator: "\r\r\n") + "\r\r\n")
        #expect(report.imported == 1)
        let contact = try #require(try all(store).first)
        #expect(try store.photo(id: contact.id)?.data == photo)
        #expect(contact.phones.map(\.value) == ["+1 415 555 0100"])
    }

    /// A photo's text loses its white space byte by byte when it is ASCII,
    /// and by characters otherwise: the same as by characters throughout,
    /// on random runs of base64 letters and every kind of white space.
    @Test func aPhotosWhiteSpaceGoesAsCharactersWouldSay() {
        let pieces = ["QUJD", "+/=", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\r\n", " ", "\u{A0}", "\u{2028}", "\u{3000}", "é"]
        var random = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            let text = (0..<random.below(12)).map { _ in pieces[random.below(pieces.count)] }.joined()
            #expect(VCardPropertyMapper.withoutWhiteSpace(Substring(text)) == Data(String(text.filter { !$0.isWhitespace }).utf8))
        }
    }

    /// vCard 2.1's quoted-printable soft breaks, with the next line indented
    /// or not, leave neither "=" nor a break; a backslash that ends a line
    /// carries the value on to the next.
    @Test func softLineBreaksJoinTheirLines() throws {
        let card = [
            "BEGIN:VCARD", "VERSION:2.1", "N:Kim;Bo;;;",
            "NOTE;ENCODING=QUOTED-PRINTABLE:first half=", " and second half=0D=0Anext line",
            "ORG;ENCODING=QUOTED-PRINTABLE:Acme=", "Widgets;Sales",
            "ADR;HOME:;;Hermann v. Brevern\\", "Packstation 999;Town;;12345;Land",
            "END:VCARD",
        ].joined(separator: "\r\n") + "\r\n"
        let (store, _) = try importing(card)
        let contact = try #require(try all(store).first)
        // The note's CR LF is stored as LF, as every note's is.
        #expect(contact.details.note == "first half and second half\nnext line")
        #expect(contact.company == "AcmeWidgets" && contact.details.department == "Sales")
        #expect(contact.addresses.first?.street1 == "Hermann v. Brevern\nPackstation 999" && contact.addresses.first?.city == "Town")
    }

    /// macOS Contacts exports UTF-16 without a byte-order mark.
    @Test(arguments: [String.Encoding.utf16BigEndian, .utf16LittleEndian])
    func utf16WithoutAByteOrderMarkImports(_ encoding: String.Encoding) throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Muñoz;José;;;\r\nEND:VCARD\r\n"
        let store = try ContactStore.makeEmpty()
        let report = try store.importContacts(from: [.data(card.data(using: encoding)!, source: "utf16.vcf")])
        #expect(report.imported == 1)
        #expect(try all(store).map(\.displayName) == ["José Muñoz"])
    }

    /// A wide file is decoded in pieces of 64 Ki units: a character of two
    /// UTF-16 units across a piece's end stays whole, in either byte order
    /// and in UTF-32; a lone surrogate becomes U+FFFD.
    @Test(arguments: [String.Encoding.utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian])
    func aWideFileIsDecodedWholeAcrossItsPieces(_ encoding: String.Encoding) throws {
        let head = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ann 😀\r\nNOTE:"
        let padding = String(repeating: "a", count: (1 << 16) - head.utf16.count - 1)
        let text = head + padding + "😀é\r\nEND:VCARD\r\n"
        let bom: [UInt8] = switch encoding {
        case .utf16BigEndian: [0xFE, 0xFF]
        case .utf16LittleEndian: [0xFF, 0xFE]
        case .utf32BigEndian: [0x00, 0x00, 0xFE, 0xFF]
        default: [0xFF, 0xFE, 0x00, 0x00]
        }
        let bytes = Data(bom) + text.data(using: encoding)!
        let utf8 = try #require(bytes.withUnsafeBytes { UnicodeTranscoding.utf8($0.bindMemory(to: UInt8.self)) })
        #expect(utf8 == Data(text.utf8))
        if encoding == .utf16LittleEndian {
            // A high surrogate with no low one after it, then "b".
            let lone = try #require(Data([0xFF, 0xFE, 0x3D, 0xD8, 0x62, 0x00]).withUnsafeBytes {
                UnicodeTranscoding.utf8($0.bindMemory(to: UInt8.self))
            })
            #expect(String(decoding: lone, as: UTF8.self) == "\u{FFFD}b")
        }
    }

    /// A 2.1 card that names ISO-8859-1 but holds UTF-8 is read as UTF-8;
    /// Latin-1 bytes under that name stay Latin-1.
    @Test func utf8UnderAOneByteCharsetIsReadAsUTF8() throws {
        var bytes = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=ISO-8859-1:".utf8) + Array("Muñoz".utf8)
        bytes += Array(";Ana\r\nNOTE;CHARSET=ISO-8859-1:".utf8) + [0x41, 0xF1, 0x6F] + Array("\r\nEND:VCARD\r\n".utf8)
        let store = try ContactStore.makeEmpty()
        _ = try store.importContacts(from: [.data(Data(bytes), source: "mixed.vcf")])
        let contact = try #require(try all(store).first)
        #expect(contact.lastName == "Muñoz" && contact.details.note == "Año")
    }

    /// Cards nested without AGENT are cards of their own; the card around
    /// them goes on after them, with everything it holds.
    @Test func cardsNestedWithoutAnAgentAreCardsOfTheirOwn() throws {
        let lines = ["BEGIN:VCARD", "VERSION:2.1", "N:Outer;Olga;;;", "TEL:+7 912 345-67-89",
                     "BEGIN:VCARD", "VERSION:2.1", "N:Inner;Ivan;;;", "END:VCARD",
                     "BEGIN:VCARD", "VERSION:2.1", "N:Second;Sasha;;;", "END:VCARD",
                     "EMAIL:olga@example.com", "END:VCARD"]
        let (store, report) = try importing(lines.joined(separator: "\r\n") + "\r\n")
        #expect(report.imported == 3)
        let contacts = try all(store)
        #expect(contacts.map(\.displayName).sorted() == ["Ivan Inner", "Olga Outer", "Sasha Second"])
        let outer = try #require(contacts.first { $0.lastName == "Outer" })
        #expect(outer.emails.map(\.value) == ["olga@example.com"] && outer.phones.count == 1)
    }

    /// A card a sync pulls is the one that begins first, not a card nested
    /// in it that ends sooner.
    @Test func aPulledCardIsTheOuterOneOfNestedCards() throws {
        let card = ["BEGIN:VCARD", "VERSION:2.1", "N:Outer;Olga;;;", "BEGIN:VCARD", "VERSION:2.1", "N:Inner;Ivan;;;",
                    "END:VCARD", "END:VCARD"].joined(separator: "\r\n") + "\r\n"
        #expect(try ImportedCard.draft(vCard: Data(card.utf8), source: "/ab/x.vcf").lastName == "Outer")
    }

    /// A control character another address book wrote (Outlook 2003's
    /// U+000C) is kept, not a reason to refuse the card.
    @Test func importedControlCharactersAreKept() throws {
        let card = "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Doe;Jo;;;\r\nNOTE;ENCODING=QUOTED-PRINTABLE:a=0Cb=09c\r\nEND:VCARD\r\n"
        let (store, _) = try importing(card)
        #expect(try all(store).first?.details.note == "a\u{0C}b\tc")
    }

    /// A card that holds anything is kept and named by what it holds.
    @Test func aCardThatHoldsAnythingIsKeptAndNamed() throws {
        let cards = [
            ["BEGIN:VCARD", "VERSION:2.1", "X-GOOGLE-TALK:jo.doe@gmail.com",
             "X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;JJ;1;;;;;;;;;;;;;", "END:VCARD"],
            ["BEGIN:VCARD", "VERSION:3.0", "N:;;;;", "LABEL;TYPE=HOME:1 Main St\\nTown", "END:VCARD"],
            ["BEGIN:VCARD", "VERSION:3.0", "X-CUSTOM:only this", "END:VCARD"],
            ["BEGIN:VCARD", "VERSION:4.0", "IMPP:xmpp:kim@jabber.example", "END:VCARD"],
            ["BEGIN:VCARD", "VERSION:4.0", "URL:https://kim.example", "END:VCARD"],
            ["BEGIN:VCARD", "VERSION:4.0", "NOTE:Met at the fair\\nSecond line", "END:VCARD"],
            ["BEGIN:VCARD", "VERSION:4.0", "UID:x", "PRODID:-//x//y//EN", "END:VCARD"],
        ].map { $0.joined(separator: "\r\n") }.joined(separator: "\r\n") + "\r\n"
        let (store, report) = try importing(cards, skippingInvalid: true)
        #expect(report.imported == 6 && report.skipped.count == 1, "\(report.skipped)")
        #expect(report.skipped.first?.contains("card 7") == true)
        let names = try all(store).map(\.displayName)
        #expect(names.sorted() == ["", "", "", "Met at the fair", "https://kim.example", "kim@jabber.example"], "\(names)")
        let unnamed = try store.contacts(matching: ContactQuery().filter(.section("#"))).filter { $0.displayName.isEmpty }
        #expect(unnamed.count == 3)
    }

    /// A JSON contact whose messenger has no handle is kept, the messenger
    /// left out and counted.
    @Test func aJSONMessengerWithoutAHandleIsLeftOutAndCounted() throws {
        let store = try ContactStore.makeEmpty()
        let json = #"[{"messengers": [{"service": "telegram", "handle": ""}]}, {"firstName": "A", "messengers": [{"service": "signal", "handle": " "}]}]"#
        let report = try store.importContacts(from: [.data(Data(json.utf8), source: "m.json")])
        #expect(report.imported == 2 && report.unusual.emptyMessengers == 2)
        #expect(try all(store).allSatisfy { $0.messengers.isEmpty })
    }

    /// Types as producers give them come out as given: Roundcube's homefax,
    /// an unlabelled X-ABDATE, RELATED with two types, a photo's HOME, a
    /// KEY's media type; 3.0 carries 4.0's data: URIs as ENCODING=b.
    @Test func typesComeOutAsGiven() throws {
        let card = [
            "BEGIN:VCARD", "VERSION:4.0", "FN:Rita Types", "N:Types;Rita;;;",
            "TEL;TYPE=homefax:+420 222 111 333", "TEL;TYPE=\"work,voice\":+1 415 555 0100",
            "RELATED;TYPE=friend,colleague;VALUE=text:Sam Doe", "X-ABDATE:2001-06-23",
            "PHOTO;MEDIATYPE=image/png;TYPE=home:data:image/png;base64,iVBORw0KGgo=",
            "KEY;MEDIATYPE=application/pgp-keys:data:application/pgp-keys;base64,mQINBF", "END:VCARD",
        ].joined(separator: "\r\n") + "\r\n"
        let (store, _) = try importing(card)
        let contact = try #require(try all(store).first)
        #expect(contact.phones.map(\.type) == ["home fax", "work"])
        let v4 = contact.vCard(version: .v4), v3 = contact.vCard(version: .v3)
        for line in ["TEL;TYPE=home,fax:+420 222 111 333", "RELATED;TYPE=friend,colleague;VALUE=text:Sam Doe",
                     "X-ABDATE:20010623", "PHOTO;MEDIATYPE=image/png;TYPE=home:data:image/png;base64,iVBORw0KGgo=",
                     "KEY;MEDIATYPE=application/pgp-keys:data:application/pgp-keys;base64,mQINBF"] {
            #expect(v4.contains(line + "\r\n"), "\(line) in\n\(v4)")
        }
        for line in ["TEL;TYPE=HOME,FAX:+420 222 111 333", "X-ABDATE:2001-06-23", "PHOTO;ENCODING=b;TYPE=home;TYPE=PNG:iVBORw0KGgo=",
                     "KEY;ENCODING=b;TYPE=PGP-KEYS:mQINBF"] {
            #expect(v3.contains(line + "\r\n"), "\(line) in\n\(v3)")
        }
        #expect(!v4.contains("X-ABLabel") && !v3.contains("X-ABLabel:_$!<Other>!$_"))
    }

    /// Cards written here after what producers write, each of which lost
    /// something: TYPE=other on EMAIL and ADR, told from no type; RELATED
    /// with two types in 3.0; a KEY's media type given as a 3.0 TYPE, in
    /// 4.0; an X-ABRELATEDNAMES without a label; a 2.1 card of several
    /// quoted-printable ORG lines under CHARSET=UTF-8. Each comes out of
    /// both versions as given, and each output reads back as itself.
    @Test(arguments: [
        (["VERSION:3.0", "EMAIL;TYPE=INTERNET,OTHER:olga@example.org", "EMAIL:plain@example.org",
          "ADR;TYPE=OTHER:;;1 Road;Town;;;", "ADR:;;2 Road;Town;;;", "TEL;TYPE=other:+1 415 555 0100"],
         ["EMAIL;TYPE=other:olga@example.org", "EMAIL:plain@example.org", "ADR;TYPE=other:;;1 Road;Town;;;",
          "ADR:;;2 Road;Town;;;", "TEL;TYPE=other:+1 415 555 0100"], [String]()),
        (["VERSION:4.0", "RELATED;TYPE=friend,colleague;VALUE=text:Sam Doe", "RELATED;TYPE=spouse;VALUE=text:Kim"],
         ["RELATED;TYPE=friend,colleague;VALUE=text:Sam Doe"], ["RELATED;TYPE=spouse;VALUE=text:Kim"]),
        (["VERSION:3.0", "X-ABRELATEDNAMES:Kim", "item1.X-ABRELATEDNAMES:Sam", "item2.X-ABRELATEDNAMES:Ann",
          "item2.X-ABLabel:_$!<Sister>!$_"],
         ["X-ABRELATEDNAMES:Kim", "X-ABRELATEDNAMES:Sam", "X-ABLabel:_$!<Sister>!$_"], []),
        (["VERSION:3.0", "KEY;ENCODING=b;TYPE=PGP-KEYS:mQINBF", "KEY;TYPE=application/pgp-keys;ENCODING=b:mQIOBF",
          "KEY;ENCODING=b;TYPE=PGP:mQIPBF"],
         [],
         ["KEY:data:application/pgp-keys;base64,mQINBF", "KEY:data:application/pgp-keys;base64,mQIOBF",
          "KEY;TYPE=PGP:data:application/octet-stream;base64,mQIPBF"]),
        (["VERSION:2.1", "N:Nu;Ana;;;", "ORG;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE;TYPE=WORK:=43=C3=91=61",
          "ORG;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Compa=C3=B1=C3=ADa =C3=91and=C3=BA",
          "ORG;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=91o=C3=B1o S.A.;Dise=C3=B1o;Web",
          "item2.ORG;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Pe=C3=B1a", "ORG;CHARSET=UTF-8;QUOTED-PRINTABLE:Pe=C3=B1a"],
         ["ORG;TYPE=WORK:CÑa", "ORG:Compañía Ñandú", "ORG:Ñoño S.A.;Diseño;Web", "item2.ORG:Peña", "ORG:Peña"], []),
    ])
    func theLastCardsComeOutAsGiven(_ lines: [String], _ inBoth: [String], _ inV4: [String]) throws {
        let card = (["BEGIN:VCARD"] + lines + ["FN:Olga Other", "UID:last-cards", "END:VCARD"]).joined(separator: "\r\n") + "\r\n"
        let (store, _) = try importing(card)
        let contact = try #require(try all(store).first)
        let v3 = contact.vCard(version: .v3), v4 = contact.vCard(version: .v4)
        for line in inBoth { #expect(v3.contains(line + "\r\n") && v4.contains(line + "\r\n"), "\(line) in\n\(v3)\n\(v4)") }
        for line in inV4 { #expect(v4.contains(line + "\r\n"), "\(line) in\n\(v4)") }
        #expect(!v3.contains("_$!<Other>!$_") && !v4.contains("_$!<Other>!$_") && !v3.contains("Ã") && !v4.contains("Ã"))
        for (version, text) in [(VCardVersion.v3, v3), (.v4, v4)] {
            let again = try #require(try all(try importing(text).0).first)
            #expect(again.vCard(version: version) == text)
        }
    }

    /// The label `other` is an untyped value's too; a card's own TYPE=other
    /// is kept beside it.
    @Test func typeOtherIsToldFromNoType() throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:O\r\nEMAIL;TYPE=OTHER:a@example.org\r\nEMAIL:b@example.org\r\nEND:VCARD\r\n"
        let contact = try #require(try all(try importing(card).0).first)
        #expect(contact.emails == [Email(type: "other", value: "a@example.org", parameters: "TYPE=other"),
                                   Email(type: "other", value: "b@example.org")])
    }
}
