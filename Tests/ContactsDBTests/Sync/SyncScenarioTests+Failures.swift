import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSync

/// The scenarios of a sync that fails, dies part-way, runs on two devices
/// or carries a merge: the second half of ``SyncScenarioTests``, which
/// holds the devices and cards they share.
extension SyncScenarioTests {
    // MARK: - Failures

    @Test func aServerThatFailsEndsTheSyncWith69AndTheNextGoesOn() throws {
        let server = InMemoryAddressBook()
        server.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        let device = try Device(server)
        server.refusing["REPORT"] = 503
        #expect { try device.sync() } throws: { error in
            guard case ContactsDBError.remoteUnavailable = error else { return false }
            return (error as? ContactsDBError).map { $0.localizedDescription.contains("503") } ?? false
        }
        server.refusing = [:]
        #expect(try device.sync().pulled.new == 1)
    }

    /// A card over the address book's `max-resource-size` is refused: it
    /// is named with its size, stays here, and the rest go on.
    @Test func aCardOverTheServersSizeStaysHereAndTheRestGoOn() throws {
        let server = InMemoryAddressBook()
        server.maxResourceSize = 2_000
        let device = try Device(server)
        try device.add("small", "Anna", "Petrova")
        var large = ContactDraft(id: "large", firstName: "Boris", lastName: "Ivanov")
        large.note = (0..<400).map { "line \($0)" }.joined(separator: " ")
        try device.store.add(large)
        let report = try device.sync()
        #expect(report.pushed.new == 1 && server.names == ["small.vcf"])
        #expect(report.skipped.count == 1)
        #expect(report.skipped.first?.hasPrefix("large: the server refused it (403) as larger than it takes (a card of ") == true,
                "\(report.skipped)")
        #expect(try device.contact("large")?.note == large.note)
        server.maxResourceSize = nil
        #expect(try device.sync().pushed.new == 1)
        #expect(server.names == ["large.vcf", "small.vcf"])
    }

    @Test(arguments: [401, 403])
    func refusedCredentialsOrAccessEndTheSyncAs77(_ status: Int) throws {
        let server = InMemoryAddressBook()
        let device = try Device(server)
        server.refusing["REPORT"] = status
        server.refusing["PROPFIND"] = status
        #expect(throws: ContactsDBError.remoteRefusedCredentials(url: InMemoryAddressBook.collection.absoluteString)) {
            try device.sync()
        }
    }

    @Test func aRedirectToAnotherServerIsNotFollowedAndEndsTheSyncAs69() throws {
        let server = InMemoryAddressBook()
        let device = try Device(server)
        for method in ["PROPFIND", "REPORT"] { server.redirecting[method] = "http://192.0.2.7/dav/anna/contacts/" }
        #expect { try device.sync() } throws: { error in
            guard case let ContactsDBError.remoteUnavailable(_, reason) = error else { return false }
            return reason.contains("192.0.2.7")
        }
        #expect(server.requests.allSatisfy { $0.url.host == "127.0.0.1" })
    }

    @Test func aLockedServerIsAskedAgain() throws {
        let server = InMemoryAddressBook()
        let device = try Device(server)
        try device.add("x", "Vera", "Sokolova")
        server.refusingOnce["PUT"] = 423
        #expect(try device.sync().pushed.new == 1)
        #expect(server.requests("PUT").count == 2)
    }

    @Test func aDryRunCountsAndChangesNothing() throws {
        let server = InMemoryAddressBook()
        server.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        let device = try Device(server)
        try device.add("x", "Vera", "Sokolova")
        let report = try device.sync(dryRun: true)
        #expect(counts(report.pulled) == [1, 0, 0] && counts(report.pushed) == [1, 0, 0])
        #expect(try device.ids() == ["x"])
        #expect(server.names == ["a.vcf"])
    }

    /// A new card's PUT answered 201 is synced once a listing shows its
    /// ETag: the next sync fetches nothing and pushes nothing, and a dry
    /// run before it counts nothing to push; an edit then goes with
    /// If-Match.
    @Test func aNewCardIsSyncedWhenAListingShowsTheETagItsPutGot() throws {
        let server = InMemoryAddressBook()
        let device = try Device(server)
        try device.add("x", "Vera", "Sokolova")
        try device.sync()
        let reports = server.requests("REPORT").count
        #expect(counts(try device.sync(dryRun: true).pushed) == [0, 0, 0])
        let again = try device.sync()
        #expect(counts(again.pulled) == [0, 0, 0] && counts(again.pushed) == [0, 0, 0])
        #expect(server.requests("PUT").count == 1)
        #expect(server.requests("REPORT").count - reports == 2, "one listing each, no card fetched")
        let etag = try #require(server.card("x.vcf")?.etag)
        try device.store.update(id: "x") { $0.lastName = "Ivanova" }
        #expect(counts(try device.sync().pushed) == [0, 1, 0])
        #expect(server.requests("PUT").last?.header("If-Match") == etag)
    }

    /// A stored version that cannot be read stops the sync, rather than
    /// making every property of the card a conflict.
    @Test func aDamagedSyncedVersionFailsTheSyncInsteadOfConflictingEverything() throws {
        let (server, device) = try Self.annaSynced()
        try device.store.write { db in try db.execute(sql: "UPDATE syncedCard SET base = '{not json'") }
        server.put("a.vcf", Self.card("a", "Anna", "Ivanova"))
        #expect { try device.sync() } throws: { error in
            guard case let ContactsDBError.databaseFailure(reason) = error else { return false }
            return reason.contains("a.vcf")
        }
        #expect(try device.store.conflicts().isEmpty)
    }

    // MARK: - A sync that dies

    /// Syncs with the server losing or dropping `method`'s requests: the
    /// sync fails as a killed one would, what it stored before stays.
    func dyingSync(_ device: Device, losing method: String, dropping: Bool = false) {
        if dropping { device.server.droppingRequests = [method] } else { device.server.losingAnswers = [method] }
        #expect(throws: ContactsDBError.self) { try device.sync() }
        device.server.droppingRequests = []
        device.server.losingAnswers = []
    }

    @Test func aNewCardWhosePushArrivedUnansweredIsNotPushedTwice() throws {
        let server = InMemoryAddressBook()
        let device = try Device(server)
        try device.add("x", "Vera", "Sokolova")
        dyingSync(device, losing: "PUT")
        #expect(server.names == ["x.vcf"])
        let report = try device.sync()
        #expect(report.conflicts == 0 && counts(report.pushed) == [0, 0, 0])
        #expect(server.names == ["x.vcf"] && server.requests("PUT").count == 1)
        #expect(counts(try device.sync().pushed) == [0, 0, 0])
    }

    @Test func anEditWhosePushArrivedUnansweredIsNoConflict() throws {
        let (server, device) = try Self.annaSynced()
        try device.store.update(id: "a") { $0.lastName = "Ivanova" }
        dyingSync(device, losing: "PUT")
        let report = try device.sync()
        #expect(report.conflicts == 0)
        #expect(server.card("a.vcf")?.text.contains("N:Ivanova;Anna") == true)
        #expect(counts(try device.sync().pushed) == [0, 0, 0])
    }

    /// The push arrived, its answer was lost, then another client deleted
    /// the card: the deletion holds here too, not a second new card.
    @Test func aPushedCardAnotherClientDeletedIsDeletedHereNotPushedAgain() throws {
        let server = InMemoryAddressBook()
        let device = try Device(server)
        try device.sync()
        try device.add("x", "Vera", "Sokolova")
        dyingSync(device, losing: "PUT")
        server.delete("x.vcf")
        let report = try device.sync()
        #expect(report.pulled.deleted == 1 && report.pushed.new == 0)
        #expect(try device.ids() == [] && server.names == [])
    }

    /// A new card's first push never arrived, its second did but its
    /// answer was lost: the second is what the server holds and the base,
    /// so a third edit of the same property is no conflict with the
    /// device's own second.
    @Test func everyUnconfirmedPushIsAPossibleBase() throws {
        let server = InMemoryAddressBook()
        let device = try Device(server)
        try device.add("x", "Vera", "One")
        dyingSync(device, losing: "PUT", dropping: true)
        try device.store.update(id: "x") { $0.lastName = "Two" }
        dyingSync(device, losing: "PUT")
        #expect(server.card("x.vcf")?.text.contains("N:Two;Vera") == true)
        try device.store.update(id: "x") { $0.lastName = "Three" }
        let report = try device.sync()
        #expect(report.conflicts == 0)
        #expect(server.card("x.vcf")?.text.contains("N:Three;Vera") == true)
    }

    /// A server that sends no ETags: a known card is still written only if
    /// it is still there (If-Match: *), never re-created after another
    /// client deleted it.
    @Test func withoutETagsAKnownCardIsWrittenOnlyWhereItStillIs() throws {
        let server = InMemoryAddressBook()
        server.sendsETags = false
        server.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        let device = try Device(server)
        try device.sync()
        try device.store.update(id: "a") { $0.company = "Acme" }
        try device.sync()
        #expect(server.requests("PUT").last?.header("If-Match") == "*")
        #expect(server.card("a.vcf")?.text.contains("ORG:Acme") == true)
        try device.store.delete(ids: ["a"])
        try device.sync()
        #expect(server.requests("DELETE").last?.header("If-Match") == "*")
        #expect(server.names == [])
    }

    // MARK: - Two devices

    @Test func twoDevicesAgreeAfterEachSyncs() throws {
        let server = InMemoryAddressBook()
        let phone = try Device(server), laptop = try Device(server)
        try phone.add("p", "Pavel", "Orlov", phone: "+7 912 345-67-89")
        try laptop.add("l", "Lena", "Kim")
        try phone.sync(); try laptop.sync(); try phone.sync()
        #expect(try phone.ids() == ["l", "p"] && laptop.ids() == ["l", "p"])
        try laptop.store.update(id: "p") { $0.company = "Acme" }
        try phone.store.delete(ids: ["l"])
        try laptop.sync(); try phone.sync(); try laptop.sync()
        #expect(try phone.ids() == ["p"] && laptop.ids() == ["p"])
        #expect(try phone.contact("p")?.company == "Acme")
        let quiet = try phone.sync()
        #expect(counts(quiet.pulled) == [0, 0, 0] && counts(quiet.pushed) == [0, 0, 0])
    }

    // MARK: - Merges

    /// A merge pushes the survivor and deletes the merged contacts' cards;
    /// taking it back pushes them again, and a second device follows both.
    @Test func aMergeAndItsUnmergeTravelToTheServerAndTheOtherDevice() throws {
        let server = InMemoryAddressBook()
        let phone = try Device(server), laptop = try Device(server)
        try phone.add("a", "Anna", "Petrova", phone: "+7 912 345-67-89")
        try phone.add("b", "ANNA", "petrova", phone: "8 912 345 67 89")
        try phone.store.update(id: "b") { $0.note = "met in Kazan" }
        try phone.sync(); try laptop.sync()
        let merge = try phone.store.merge(["a", "b"])
        #expect(try phone.store.duplicates().isEmpty)
        let pushed = try phone.sync().pushed
        #expect(counts(pushed) == [0, 1, 1] && server.names == ["a.vcf"])
        try laptop.sync()
        #expect(try laptop.ids() == ["a"] && laptop.contact("a")?.note == "met in Kazan")

        try phone.store.unmerge(try #require(merge.mergeID))
        #expect(counts(try phone.sync().pushed) == [1, 1, 0] && server.names == ["a.vcf", "b.vcf"])
        try laptop.sync()
        #expect(try laptop.ids() == ["a", "b"])
        #expect(try laptop.contact("a")?.note == nil && laptop.contact("b")?.note == "met in Kazan")
        let quiet = try phone.sync()
        #expect(counts(quiet.pulled) == [0, 0, 0] && counts(quiet.pushed) == [0, 0, 0])
    }
}
