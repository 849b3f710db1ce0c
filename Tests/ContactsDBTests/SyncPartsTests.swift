import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSync

/// The parts of a sync that need no server: the three-way merge, the
/// reading of servers' answers, and `~/.netrc`.
struct SyncPartsTests {
    // MARK: - Merge

    private let base = ContactDraft(id: "a", firstName: "Anna", lastName: "Petrova", company: "Sprocket",
                                    phones: [Phone(value: "+7 912 345-67-89")])

    /// A field the merge does not know is one whose change alone compares
    /// equal, and is never stored or pushed: every stored property of a
    /// draft and of its details must be among the merged ones.
    @Test func theMergeKnowsEveryStoredPropertyOfAContact() {
        let json = ["isFavorite": "favorite"]
        let stored = (Mirror(reflecting: ContactDraft()).children.compactMap(\.label).filter { !["id", "uid", "details"].contains($0) }
            + Mirror(reflecting: ContactDetails()).children.compactMap(\.label))
            .map { json[$0] ?? $0 }
        #expect(Set(stored) == Set(ContactField.all.map(\.name)))
        #expect(stored.count == ContactField.all.count)
    }

    @Test func aPropertyChangedOnOneSideTakesThatSide() {
        var local = base, server = base
        local.company = "Acme"
        server.note = "met in Kazan"
        server.groups = ["Work"]
        let merge = ContactMerge(base: base, local: local, server: server, prefer: .server)
        #expect(merge.conflicting.isEmpty)
        #expect(merge.merged.company == "Acme")
        #expect(merge.merged.note == "met in Kazan")
        #expect(merge.merged.groups == ["Work"])
    }

    @Test(arguments: SyncPreference.allCases)
    func aPropertyBothChangedTakesThePreferredSide(_ prefer: SyncPreference) {
        var local = base, server = base
        local.phones = [Phone(value: "+7 912 000-00-01")]
        server.phones = [Phone(value: "+7 912 000-00-02"), Phone(type: "work", value: "+7 495 123-45-67")]
        local.jobTitle = "Engineer"
        let merge = ContactMerge(base: base, local: local, server: server, prefer: prefer)
        #expect(merge.conflicting == ["phones"])
        #expect(merge.merged.phones == (prefer == .server ? server.phones : local.phones))
        #expect(merge.merged.jobTitle == "Engineer", "a one-sided change survives a conflict elsewhere")
    }

    @Test func bothSidesMakingTheSameChangeIsNoConflict() {
        var local = base, server = base
        local.lastName = "Ivanova"
        server.lastName = "Ivanova"
        server.groups = ["B", "A"]
        local.groups = ["A", "B"]
        let merge = ContactMerge(base: base, local: local, server: server, prefer: .server)
        #expect(merge.conflicting.isEmpty)
        #expect(ContactMerge.isSame(merge.merged, server), "groups compare in any order")
    }

    @Test func withoutABaseEveryDifferenceIsBothSidesChange() {
        var server = base
        server.company = "Acme"
        let merge = ContactMerge(base: nil, local: base, server: server, prefer: .local)
        #expect(merge.conflicting == ["company"])
        #expect(merge.merged.company == "Sprocket")
    }

    // MARK: - Servers' answers

    @Test func aMultistatusGivesHrefsStatusesPropertiesAndToken() throws {
        let xml = """
            <?xml version="1.0"?>
            <D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">
            <D:response><D:href>/c/a%20b.vcf</D:href><D:propstat><D:prop><D:getetag>"1"</D:getetag>
            <C:address-data><![CDATA[BEGIN:VCARD\r
            END:VCARD]]></C:address-data></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>
            <D:propstat><D:prop><D:displayname/></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat></D:response>
            <D:response><D:href>/c/gone.vcf</D:href><D:status>HTTP/1.1 404 Not Found</D:status></D:response>
            <D:sync-token>tok-2</D:sync-token>
            </D:multistatus>
            """
        let status = try DAVXML.multistatus(Data(xml.utf8), from: URL(string: "http://127.0.0.1/c/")!)
        #expect(status.syncToken == "tok-2")
        #expect(status.responses.map(\.href) == ["/c/a%20b.vcf", "/c/gone.vcf"])
        #expect(status.responses[0].property("getetag")?.trimmedText == "\"1\"")
        // XML reads every line break as LF (XML 1.0 §2.11); vCards read either.
        #expect(status.responses[0].property("address-data")?.text == "BEGIN:VCARD\nEND:VCARD")
        #expect(status.responses[0].property("displayname") == nil, "a property found with 404 is not there")
        #expect(status.responses[1].status == 404)
    }

    @Test(arguments: [
        ("FN:Ёж\r\nEND:VCARD", "FN:Ёж\nEND:VCARD"), ("FN:a\rEND:VCARD\r", "FN:a\nEND:VCARD\n"),
        ("FN:a\r\r\nEND", "FN:a\n\nEND"), ("FN:a\nEND", "FN:a\nEND"),
    ])
    func aCDATASectionsLineBreaksAreReadAsXMLReadsThem(_ written: String, _ read: String) throws {
        let xml = """
            <d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:response><d:href>/c/a.vcf</d:href>\
            <d:propstat><d:prop><c:address-data><![CDATA[\(written)]]></c:address-data></d:prop>\
            <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
            """
        let status = try DAVXML.multistatus(Data(xml.utf8), from: URL(string: "http://127.0.0.1/c/")!)
        #expect(status.responses.first?.property("address-data")?.text == read)
    }

    @Test(arguments: ["", "<html>Proxy error</html>", "<d:multistatus xmlns:d=\"urn:other\"/>", "<a><b></a>"])
    func anAnswerThatIsNoMultistatusFailsWithASentence(_ text: String) {
        let error = #expect(throws: ContactsDBError.self) {
            try DAVXML.multistatus(Data(text.utf8), from: URL(string: "https://dav.example/c/")!)
        }
        #expect(error?.localizedDescription == "The remote https://dav.example/c/ answered what a sync cannot read: its answer is not a WebDAV multistatus; check the URL, then sync again.")
    }

    // MARK: - Credentials

    @Test func netrcGivesTheHostsEntryElseTheDefault() {
        let text = """
            # comment-free, as curl reads it
            machine dav.example login anna password "two words"
            macdef init
            cd /pub
            machine hidden.example login no

            machine other.example
                login boris
                password p\\"q
            default login guest password guest
            """
        #expect(Netrc.entry(in: text, host: "dav.example")! == ("anna", "two words"))
        #expect(Netrc.entry(in: text, host: "OTHER.example")! == ("boris", "p\"q"))
        #expect(Netrc.entry(in: text, host: "hidden.example")! == ("guest", "guest"), "a macdef body is no entry")
        #expect(Netrc.entry(in: text, host: "elsewhere")! == ("guest", "guest"))
        #expect(Netrc.entry(in: "machine a login b password c", host: "z") == nil)
    }

    @Test func aPasswordFileLosesOneTrailingNewlineOnly() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("contactsdb-password-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(" secret \n\n".utf8).write(to: file)
        let credentials = try Credentials.read(for: Remote(name: "r", url: "", username: "u", password: .file(file.path)), host: "h")
        #expect(credentials?.password == " secret \n")
        #expect(throws: ContactsDBError.self) {
            try Credentials.read(for: Remote(name: "r", url: "", password: .environment("UNSET_VARIABLE")), host: "h", environment: [:])
        }
    }

    @Test(arguments: [("http://127.0.0.1:8080/", true), ("http://localhost/dav", true), ("http://[::1]/", true),
                      ("https://dav.example/", true), ("http://dav.example/", false), ("http://127.0.0.1.evil.example/", false),
                      ("ftp://dav.example/", false)])
    func plainHTTPOnlyToThisMachine(_ url: String, _ allowed: Bool) {
        #expect(((try? DAVClient.requireSecure(URL(string: url)!)) != nil) == allowed)
    }
}
