import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSync

/// A database syncing with ``InMemoryAddressBook``: the sync's decisions,
/// each scenario on every `swift test`, without a server process. The
/// same behaviour against Radicale, Xandikos and vdirsyncer is in
/// SyncCommandTests and Tests/Sync/.
@Suite struct SyncScenarioTests {
    /// One device: a database with the in-memory address book as remote.
    struct Device {
        let store: ContactStore
        let server: InMemoryAddressBook

        init(_ server: InMemoryAddressBook, groups: GroupConvention? = nil) throws {
            var options = ContactStore.Options()
            options.seedsOnFirstOpen = false
            store = try ContactStore.makeInMemory(options: options)
            self.server = server
            // The remote binds the book the device's contacts are in.
            try store.renameBook(Book.firstName, to: "home")
            try store.addRemote(Remote(name: "home", url: server.collection.absoluteString, groups: groups),
                                transport: server)
        }

        @discardableResult
        func sync(prefer: SyncPreference = .server, dryRun: Bool = false) throws -> SyncReport {
            try store.sync(remote: "home", prefer: prefer, dryRun: dryRun, transport: server)
        }

        @discardableResult
        func add(_ id: String, _ first: String, _ last: String, phone: String? = nil) throws -> Contact {
            try store.add(ContactDraft(id: id, firstName: first, lastName: last, phones: phone.map { [Phone(value: $0)] } ?? []))
        }

        func contact(_ id: String) throws -> Contact? { try store.contact(id: id) }
        func ids() throws -> [String] { try store.ids(matching: ContactQuery()).sorted() }
    }

    static func card(_ uid: String, _ first: String, _ last: String, note: String? = nil, tel: String? = nil) -> String {
        var lines = ["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "N:\(last);\(first);;;", "FN:\(first) \(last)"]
        if let note { lines.append("NOTE:\(note)") }
        if let tel { lines.append("TEL;TYPE=CELL:\(tel)") }
        return (lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    func counts(_ counts: SyncCounts) -> [Int] { [counts.new, counts.changed, counts.deleted] }

    /// An address book holding Anna's card, and a device that synced it.
    static func annaSynced() throws -> (InMemoryAddressBook, Device) {
        let server = InMemoryAddressBook()
        server.put("a.vcf", card("a", "Anna", "Petrova"))
        let device = try Device(server)
        try device.sync()
        return (server, device)
    }

    // MARK: - Pulling and pushing

    @Test func aFirstSyncPullsEveryCardAndASecondSendsNothing() throws {
        let server = InMemoryAddressBook()
        server.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        server.put("b.vcf", Self.card("b", "Boris", "Ivanov"))
        let device = try Device(server)
        #expect(counts(try device.sync().pulled) == [2, 0, 0])
        #expect(try device.ids() == ["a", "b"])
        let requests = server.requests("PUT").count + server.requests("DELETE").count
        let again = try device.sync()
        #expect(counts(again.pulled) == [0, 0, 0] && counts(again.pushed) == [0, 0, 0])
        #expect(server.requests("PUT").count + server.requests("DELETE").count == requests)
    }

    @Test func aNewContactIsPushedOnceUnderItsFileNameAndNeverOverAnother() throws {
        let server = InMemoryAddressBook()
        let device = try Device(server)
        try device.add("new-1", "Vera", "Sokolova")
        #expect(counts(try device.sync().pushed) == [1, 0, 0])
        #expect(server.names == ["new-1.vcf"])
        #expect(server.requests("PUT").last?.header("If-None-Match") == "*")
        #expect(counts(try device.sync().pushed) == [0, 0, 0])
    }

    @Test func anEditHereIsPushedWithTheETagItWasBasedOn() throws {
        let server = InMemoryAddressBook()
        let etag = server.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        let device = try Device(server)
        try device.sync()
        try device.store.update(id: "a") { $0.company = "Acme" }
        #expect(counts(try device.sync().pushed) == [0, 1, 0])
        #expect(server.requests("PUT").last?.header("If-Match") == etag)
        #expect(server.card("a.vcf")?.text.contains("ORG:Acme") == true)
    }

    @Test func aChangeThereReplacesAContactUnchangedHere() throws {
        let (server, device) = try Self.annaSynced()
        server.put("a.vcf", Self.card("a", "Anna", "Ivanova"))
        #expect(counts(try device.sync().pulled) == [0, 1, 0])
        #expect(try device.contact("a")?.lastName == "Ivanova")
        #expect(server.requests("PUT").isEmpty)
    }

    @Test func aDeletionThereDeletesAContactUnchangedHere() throws {
        let (server, device) = try Self.annaSynced()
        server.delete("a.vcf")
        #expect(counts(try device.sync().pulled) == [0, 0, 1])
        #expect(try device.ids() == [])
    }

    @Test func aDeletionHereIsSentWithTheETagItWasBasedOn() throws {
        let server = InMemoryAddressBook()
        let etag = server.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        let device = try Device(server)
        try device.sync()
        try device.store.delete(ids: ["a"])
        #expect(counts(try device.sync().pushed) == [0, 0, 1])
        #expect(server.requests("DELETE").last?.header("If-Match") == etag)
        #expect(server.names == [])
    }

    // MARK: - Both sides changed

    @Test func anEditHereBeatsADeletionThere() throws {
        let (server, device) = try Self.annaSynced()
        try device.store.update(id: "a") { $0.company = "Acme" }
        server.delete("a.vcf")
        let report = try device.sync()
        #expect(report.conflicts == 1)
        #expect(try device.contact("a")?.company == "Acme")
        #expect(server.card("a.vcf")?.text.contains("ORG:Acme") == true, "pushed back")
        #expect(try device.store.conflicts().first?.kept == .local)
    }

    @Test func anEditThereBeatsADeletionHere() throws {
        let (server, device) = try Self.annaSynced()
        try device.store.delete(ids: ["a"])
        server.put("a.vcf", Self.card("a", "Anna", "Petrova", note: "moved to Kazan"))
        let report = try device.sync()
        #expect(report.conflicts == 1)
        #expect(try device.contact("a")?.note == "moved to Kazan")
        #expect(server.names == ["a.vcf"])
        #expect(server.requests("DELETE").isEmpty)
    }

    @Test func editsOfDifferentPropertiesAreMergedAndPushed() throws {
        let (server, device) = try Self.annaSynced()
        try device.store.update(id: "a") { $0.company = "Acme" }
        server.put("a.vcf", Self.card("a", "Anna", "Petrova", note: "met in Kazan"))
        let report = try device.sync()
        #expect(report.conflicts == 0)
        let merged = try #require(try device.contact("a"))
        #expect(merged.company == "Acme" && merged.note == "met in Kazan")
        let text = try #require(server.card("a.vcf")?.text)
        #expect(text.contains("ORG:Acme") && text.contains("NOTE:met in Kazan"))
    }

    @Test(arguments: SyncPreference.allCases)
    func editsOfOnePropertyTakeThePreferredSideAndKeepTheOther(_ prefer: SyncPreference) throws {
        let (server, device) = try Self.annaSynced()
        try device.store.update(id: "a") { $0.lastName = "Local" }
        server.put("a.vcf", Self.card("a", "Anna", "Server"))
        let report = try device.sync(prefer: prefer)
        #expect(report.conflicts == 1)
        let kept = prefer == .server ? "Server" : "Local"
        #expect(try device.contact("a")?.lastName == kept)
        #expect(server.card("a.vcf")?.text.contains("N:\(kept);Anna") == true)
        let conflict = try #require(try device.store.conflicts().first)
        #expect(conflict.kept == prefer && conflict.properties == ["lastName"])
        #expect(conflict.losing?.lastName == (prefer == .server ? "Local" : "Server"))
    }

    @Test func aCardChangedThereDuringThePushIsPulledMergedAndPushedAgain() throws {
        let (server, device) = try Self.annaSynced()
        try device.store.update(id: "a") { $0.company = "Acme" }
        // Another client writes after this sync listed, before its PUT: 412.
        server.before["PUT"] = { server.put("a.vcf", Self.card("a", "Anna", "Petrova", note: "from the phone")) }
        let report = try device.sync()
        #expect(server.requests("PUT").count == 2, "a 412, then the merge")
        let text = try #require(server.card("a.vcf")?.text)
        #expect(text.contains("ORG:Acme") && text.contains("NOTE:from the phone"))
        #expect(report.conflicts == 0)
        #expect(counts(try device.sync().pushed) == [0, 0, 0])
    }

    @Test func aCardChangedThereBeforeItsDeletionHereComesBack() throws {
        let (server, device) = try Self.annaSynced()
        try device.store.delete(ids: ["a"])
        server.before["DELETE"] = { server.put("a.vcf", Self.card("a", "Anna", "Petrova", note: "still here")) }
        try device.sync()
        #expect(try device.contact("a")?.note == "still here")
        #expect(server.names == ["a.vcf"])
    }

    // MARK: - What servers do

    @Test func aCardMovedOnTheServerKeepsItsContact() throws {
        let (server, device) = try Self.annaSynced()
        let before = try #require(try device.contact("a"))
        server.move("a.vcf", to: "renamed.vcf")
        let report = try device.sync()
        #expect(report.pulled.deleted == 0)
        #expect(try device.ids() == ["a"])
        #expect(try device.contact("a")?.createdAt == before.createdAt)
        try device.store.update(id: "a") { $0.company = "Acme" }
        try device.sync()
        #expect(server.names == ["renamed.vcf"], "later pushes go to the card's new name")
    }

    @Test func aListingInPagesIsReadWhole() throws {
        let server = InMemoryAddressBook()
        server.pageSize = 2
        // Without the token on the collection, the first listing is a
        // sync-collection too.
        server.showsSyncToken = false
        for number in 1...7 { server.put("c\(number).vcf", Self.card("c\(number)", "Name\(number)", "Last")) }
        let device = try Device(server)
        #expect(counts(try device.sync().pulled) == [7, 0, 0])
        server.delete("c3.vcf")
        server.put("c8.vcf", Self.card("c8", "Name8", "Last"))
        let report = try device.sync()
        #expect(counts(report.pulled) == [1, 0, 1])
        #expect(try device.ids().count == 7)
    }

    /// The first listing is a PROPFIND after the collection's token: a
    /// card written between the two is listed, and is not fetched again
    /// at the next sync, which lists it as changed since the token.
    @Test func aCardWrittenWhileTheFirstListingIsTakenIsStoredOnce() throws {
        let server = InMemoryAddressBook()
        server.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        server.put("b.vcf", Self.card("b", "Boris", "Ivanov"))
        let device = try Device(server)
        server.before["PROPFIND"] = {
            server.before["PROPFIND"] = {
                server.put("late.vcf", Self.card("late", "Lev", "Orlov"))
                server.delete("b.vcf")
            }
        }
        #expect(counts(try device.sync().pulled) == [2, 0, 0])
        #expect(server.before.isEmpty, "both listings ran")
        let fetches = server.requests("REPORT").count
        #expect(counts(try device.sync().pulled) == [0, 0, 0])
        #expect(server.requests("REPORT").count - fetches == 1, "the sync-collection alone: nothing fetched again")
        #expect(try device.ids().sorted() == ["a", "late"])
    }

    /// A first sync commits batch by batch: one that fails midway keeps
    /// the batches it stored, and the next fetches only the rest.
    @Test func aFirstSyncStoppedMidwayKeepsItsBatchesAndTheNextFetchesOnlyTheRest() throws {
        let server = InMemoryAddressBook()
        for index in 0..<1_300 {
            let number = String(format: "%04d", index)
            server.put("c\(number).vcf", Self.card("c\(number)", ["Anna", "Boris", "Вера", "Ли"][index % 4], "Name\(number)",
                                                    note: "note \(number)", tel: "+7 903 555-\(number.prefix(2))-\(number.suffix(2))"))
        }
        let device = try Device(server)
        // The first sync lists by PROPFIND: its REPORTs are the multigets, 250 cards each.
        server.refusingAfter["REPORT"] = (answered: 3, status: 503)
        #expect(throws: ContactsDBError.self) { try device.sync() }
        #expect(try device.ids().count == 750, "the three batches fetched before the failure are kept")
        server.refusingAfter = [:]
        let fetchedBefore = server.requests("REPORT").count
        #expect(counts(try device.sync().pulled) == [550, 0, 0])
        let fetched = server.requests("REPORT").dropFirst(fetchedBefore).map { $0.body!.components(separatedBy: "<d:href>").count - 1 }
        #expect(fetched.reduce(0, +) == 550, "only the cards not stored were fetched: \(fetched)")
        #expect(try device.ids().count == 1_300)
        #expect(counts(try device.sync().pulled) == [0, 0, 0])
        #expect(try device.store.diagnose().allSatisfy(\.isHealthy))
        let phone = try device.store.ids(matching: ContactQuery().filter(.phone("+79035551207")))
        #expect(phone == ["c1207"])
    }

    @Test func aServerWithoutSyncTokensIsListedByETags() throws {
        let server = InMemoryAddressBook()
        server.keepsSyncTokens = false
        server.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        server.put("b.vcf", Self.card("b", "Boris", "Ivanov"))
        let device = try Device(server)
        #expect(counts(try device.sync().pulled) == [2, 0, 0])
        server.delete("a.vcf")
        server.put("b.vcf", Self.card("b", "Boris", "Smirnov"))
        #expect(counts(try device.sync().pulled) == [0, 1, 1])
        #expect(try device.ids() == ["b"])
        let fetches = server.requests("REPORT").count
        try device.sync()
        #expect(server.requests("REPORT").count - fetches == 1, "unchanged ETags: no card fetched")
    }

    @Test func aForgottenTokenStartsOverWithoutLosingOrDoublingAnything() throws {
        let (server, device) = try Self.annaSynced()
        try device.add("local", "Vera", "Sokolova")
        server.put("b.vcf", Self.card("b", "Boris", "Ivanov"))
        server.forgetTokens()
        let report = try device.sync()
        #expect(counts(report.pulled) == [1, 0, 0] && counts(report.pushed) == [1, 0, 0])
        #expect(try device.ids() == ["a", "b", "local"])
        #expect(server.names == ["a.vcf", "b.vcf", "local.vcf"])
    }

    @Test func aCardLeftOutOfAMultigetIsAskedForAgainNextTime() throws {
        let server = InMemoryAddressBook()
        server.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        server.put("b.vcf", Self.card("b", "Boris", "Ivanov"))
        server.omittedFromMultiget = [InMemoryAddressBook.collectionPath + "b.vcf"]
        let device = try Device(server)
        let report = try device.sync()
        #expect(report.pulled.new == 1)
        #expect(report.skipped.contains { $0.contains("b.vcf") && $0.contains("did not send it") })
        server.omittedFromMultiget = []
        #expect(try device.sync().pulled.new == 1)
        #expect(try device.ids() == ["a", "b"])
    }

    @Test func aCardDeletedBetweenTheListingAndItsFetchIsRemoved() throws {
        let (server, device) = try Self.annaSynced()
        server.put("a.vcf", Self.card("a", "Anna", "Ivanova"))
        // After the listing, before the multiget: its answer says 404.
        server.before["REPORT"] = { server.before["REPORT"] = { server.delete("a.vcf") } }
        try device.sync()
        #expect(try device.ids() == [])
    }

    @Test func anUnreadableCardIsReportedAndNeverPushedOver() throws {
        let server = InMemoryAddressBook()
        server.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        server.put("broken.vcf", "this is no vCard")
        let device = try Device(server)
        let report = try device.sync()
        #expect(report.pulled.new == 1)
        #expect(report.skipped.contains { $0.contains("broken.vcf") })
        try device.sync()
        #expect(server.card("broken.vcf")?.text == "this is no vCard")
    }
}
