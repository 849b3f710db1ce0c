import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSync

/// One database with several books, each syncing with its own in-memory
/// address book (docs/sync.md, "Several address books, each with its own
/// server"): no card reaches another book's server, the same card in two
/// accounts is two contacts, and a move leaves one server for the other.
/// The same against Radicale and Xandikos is in Tests/Sync/several_books.py.
@Suite struct SeveralBooksSyncTests {
    let store: ContactStore
    let work = InMemoryAddressBook(port: 8081)
    let home = InMemoryAddressBook(port: 8082)

    init() throws {
        var options = ContactStore.Options()
        options.seedsOnFirstOpen = false
        store = try ContactStore.makeInMemory(options: options)
        try store.addRemote(Remote(name: "work", url: work.collection.absoluteString), transport: work)
        try store.addRemote(Remote(name: "home", url: home.collection.absoluteString), transport: home)
        // The first remote's book became the default of the empty database; local is the default here.
        try store.setDefaultBook(Book.firstName)
    }

    static func card(_ uid: String, _ first: String, _ last: String, note: String? = nil) -> String {
        SyncScenarioTests.card(uid, first, last, note: note)
    }

    @discardableResult
    func sync(_ name: String) throws -> SyncReport {
        try store.sync(remote: name, transport: name == "work" ? work : home)
    }

    func syncBoth() throws {
        try sync("work")
        try sync("home")
    }

    func ids(inBook book: String) throws -> [String] {
        try store.ids(matching: ContactQuery().filter(.books([book]))).sorted()
    }

    func uids(on server: InMemoryAddressBook) -> [String] {
        server.names.compactMap { name in
            server.card(name)?.text.split(separator: "\r\n").first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
        }.sorted()
    }

    // MARK: - Each book its own server

    @Test func eachBookHoldsItsOwnServersCards() throws {
        work.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        home.put("b.vcf", Self.card("b", "Boris", "Ivanov"))
        home.put("c.vcf", Self.card("c", "Chloé", "Martin"))
        try syncBoth()
        #expect(try ids(inBook: "work") == ["a"])
        #expect(try ids(inBook: "home") == ["b", "c"])
        #expect(try store.books().map { [$0.name, String($0.contactCount)] } == [["home", "2"], ["local", "0"], ["work", "1"]])
    }

    @Test func anEditReachesItsOwnServerOnly() throws {
        work.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        home.put("b.vcf", Self.card("b", "Boris", "Ivanov"))
        try syncBoth()
        let (workPuts, homePuts) = (work.requests("PUT").count, home.requests("PUT").count)
        try store.update(id: "a") { $0.note = "met in Kazan" }
        try syncBoth()
        #expect(work.requests("PUT").count == workPuts + 1)
        #expect(home.requests("PUT").count == homePuts)
        #expect(work.card("a.vcf")?.text.contains("NOTE:met in Kazan") == true)
    }

    @Test func aNewContactGoesToItsBooksServerOnly() throws {
        try store.add(ContactDraft(id: "w1", firstName: "Vera", lastName: "Sokolova"), toBook: "work")
        try store.add(ContactDraft(id: "h1", firstName: "Hana", lastName: "Kim"), toBook: "home")
        try store.add(ContactDraft(id: "l1", firstName: "Lena", lastName: "Orlova"))
        try syncBoth()
        #expect(work.names == ["w1.vcf"])
        #expect(home.names == ["h1.vcf"])
        #expect(try ids(inBook: "local") == ["l1"])
    }

    @Test func aDeletionReachesItsOwnServerOnly() throws {
        work.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        home.put("b.vcf", Self.card("b", "Boris", "Ivanov"))
        try syncBoth()
        try store.delete(ids: ["b"])
        try syncBoth()
        #expect(work.names == ["a.vcf"])
        #expect(home.names.isEmpty)
        #expect(work.requests("DELETE").isEmpty)
    }

    // MARK: - Links

    /// Links are local (docs/cli.md, "One person across books: links"): after a
    /// sync no server lost or gained a card, and none was written.
    @Test func linksReachNoServer() throws {
        work.put("anna.vcf", Self.card("a", "Anna", "Petrova"))
        home.put("anna.vcf", Self.card("b", "Anna", "Petrova"))
        home.put("boris.vcf", Self.card("c", "Boris", "Ivanov"))
        try syncBoth()
        let (workCards, homeCards) = (work.names.map { work.card($0)?.text }, home.names.map { home.card($0)?.text })
        let writes = { self.work.requests("PUT").count + self.home.requests("PUT").count
            + self.work.requests("DELETE").count + self.home.requests("DELETE").count }
        let before = writes()
        try store.link(["a", "b"])
        #expect(try store.count(matching: ContactQuery().unified()) == 2)
        try syncBoth()
        try store.unlink(["b"])
        try syncBoth()
        try store.link(["a", "c"])
        try syncBoth()
        #expect(writes() == before)
        #expect(work.names.map { work.card($0)?.text } == workCards && home.names.map { home.card($0)?.text } == homeCards)
        #expect(try store.linkedIDs(of: "a") == ["c"])
    }

    // MARK: - Identity

    @Test func theSameCardInTwoBooksIsTwoContactsEachWrittenBackWithItsUID() throws {
        work.put("anna.vcf", Self.card("shared-uid", "Anna", "Petrova"))
        home.put("anna.vcf", Self.card("shared-uid", "Anna", "Petrova", note: "at home"))
        try syncBoth()
        let workIDs = try ids(inBook: "work"), homeIDs = try ids(inBook: "home")
        #expect(workIDs.count == 1 && homeIDs.count == 1 && workIDs != homeIDs)
        let second = try #require(try store.contact(id: homeIDs[0]))
        #expect(second.cardUID == "shared-uid")
        #expect(second.note == "at home")
        // Edited on both, each card goes back to its own server with the UID it came with.
        for id in workIDs + homeIDs { try store.update(id: id) { $0.jobTitle = "Engineer" } }
        try syncBoth()
        #expect(uids(on: work) == ["shared-uid"] && uids(on: home) == ["shared-uid"])
        #expect(work.card("anna.vcf")?.text.contains("TITLE:Engineer") == true)
        #expect(home.card("anna.vcf")?.text.contains("NOTE:at home") == true)
        #expect(home.card("anna.vcf")?.text.contains("TITLE:Engineer") == true)
    }

    @Test func idsStayStableAcrossSyncs() throws {
        work.put("anna.vcf", Self.card("shared-uid", "Anna", "Petrova"))
        home.put("anna.vcf", Self.card("shared-uid", "Anna", "Petrova"))
        try syncBoth()
        let before = try store.ids(matching: ContactQuery()).sorted()
        home.put("anna.vcf", Self.card("shared-uid", "Anna", "Petrova", note: "changed there"))
        work.put("anna.vcf", Self.card("shared-uid", "Anna", "Petrova", note: "changed at work"))
        try sync("home")
        try sync("work")
        #expect(try store.ids(matching: ContactQuery()).sorted() == before)
        #expect(try store.contact(id: try ids(inBook: "home")[0])?.note == "changed there")
        #expect(try store.contact(id: try ids(inBook: "work")[0])?.note == "changed at work")
    }

    @Test func twoCardsOfOneUIDInOneBookAreTwoContactsEachWrittenBackWithIt() throws {
        work.put("a.vcf", Self.card("dup", "Anna", "Petrova"))
        work.put("b.vcf", Self.card("dup", "Boris", "Ivanov"))
        try sync("work")
        let contacts = try store.contacts(matching: ContactQuery().filter(.books(["work"])))
        #expect(contacts.count == 2 && Set(contacts.map(\.id)).count == 2)
        #expect(contacts.allSatisfy { $0.cardUID == "dup" })
        for contact in contacts { try store.update(id: contact.id) { $0.note = "edited" } }
        #expect(counts(try sync("work").pushed) == [0, 2, 0])
        #expect(uids(on: work) == ["dup", "dup"])
        #expect(work.card("b.vcf")?.text.contains("NOTE:edited") == true)
    }

    @Test func aTypedIDStaysUniqueInTheDatabase() throws {
        try store.add(ContactDraft(id: "anna", firstName: "Anna"), toBook: "work")
        #expect(throws: ContactsDBError.duplicateContactID(field: "id", id: "anna")) {
            try store.add(ContactDraft(id: "anna", firstName: "Anna"), toBook: "home")
        }
    }

    // MARK: - Moving

    @Test func aMovedContactLeavesOneServerAndArrivesOnTheOther() throws {
        work.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        try syncBoth()
        let etag = try #require(work.card("a.vcf")?.etag)
        try store.move(ids: ["a"], toBook: "home")
        #expect(counts(try sync("work").pushed) == [0, 0, 1])
        #expect(work.requests("DELETE").last?.header("If-Match") == etag)
        #expect(counts(try sync("home").pushed) == [1, 0, 0])
        #expect(work.names.isEmpty)
        #expect(uids(on: home) == ["a"])
        #expect(try store.contact(id: "a")?.book == "home")
        #expect(counts(try sync("work").pushed) == [0, 0, 0])
        #expect(counts(try sync("home").pushed) == [0, 0, 0])
    }

    /// Issue 56, item 12: a contact moved here while another device edited
    /// its card on the old book's server (before that book's sync listed
    /// it, or between the listing and the DELETE) stays one contact: the
    /// edit follows it to the new book and its server, and the old card
    /// goes.
    @Test(arguments: [false, true])
    func aMovedContactEditedOnTheOldServerMeanwhileStaysOneContact(_ duringTheDelete: Bool) throws {
        work.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        try syncBoth()
        try store.move(ids: ["a"], toBook: "home")
        let edited = Self.card("a", "Anna", "Petrova", note: "from the phone")
        if duringTheDelete { work.before["DELETE"] = { [work] in work.put("a.vcf", edited) } } else { work.put("a.vcf", edited) }
        try syncBoth()
        try syncBoth()
        #expect(try store.ids(matching: ContactQuery()) == ["a"])
        let moved = try #require(try store.contact(id: "a"))
        #expect(moved.book == "home" && moved.note == "from the phone")
        #expect(work.names.isEmpty && uids(on: home) == ["a"])
        #expect(home.names.first.flatMap { home.card($0)?.text }?.contains("NOTE:from the phone") == true)
        for name in ["work", "home"] { #expect(counts(try sync(name).pushed) == [0, 0, 0]) }
    }

    /// Issue 56, item 12: a move into an address book whose server refuses
    /// a second card of one UID (the person was in both accounts; Radicale
    /// answers 409, RFC 6352's precondition is a 412): the moved contact keeps its edit, and
    /// each sync says why its card is not there.
    @Test(arguments: [409, 412])
    func aMoveIntoAServerHoldingItsUIDKeepsTheContactAndSaysWhy(_ status: Int) throws {
        work.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        home.put("h.vcf", Self.card("a", "Anna", "Petrova"))
        home.refusesSecondUID = status
        try syncBoth()
        #expect(try ids(inBook: "home") == ["a@home"])
        try store.update(id: "a") { $0.note = "edited at work" }
        try store.move(ids: ["a"], toBook: "home")
        try sync("work")
        for _ in 0..<2 {
            let report = try sync("home")
            #expect(report.skipped.contains { $0.hasPrefix("a: ") && $0.contains("another card of its UID") }, "\(report.skipped)")
            #expect(try store.contact(id: "a")?.note == "edited at work")
            #expect(try ids(inBook: "home") == ["a", "a@home"])
        }
        #expect(work.names.isEmpty && home.names == ["h.vcf"])
    }

    @Test func aMovedContactTakesItsGroupsByName() throws {
        try store.add(ContactDraft(id: "a", firstName: "Anna", groups: ["Friends"]), toBook: "work")
        try store.move(ids: ["a"], toBook: "home")
        #expect(try store.contact(id: "a")?.groups == ["Friends"])
        #expect(try store.groups().map { "\($0.book)/\($0.name)/\($0.memberCount)" } == ["home/Friends/1", "work/Friends/0"])
    }

    // MARK: - Groups and remotes per book

    @Test func groupCardsOfOneNameInTwoBooksAreTwoGroups() throws {
        let group = { (uid: String, member: String) in
            ["BEGIN:VCARD", "VERSION:4.0", "UID:\(uid)", "KIND:group", "FN:Work", "MEMBER:urn:uuid:\(member)", "END:VCARD"]
                .joined(separator: "\r\n") + "\r\n"
        }
        work.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        work.put("g.vcf", group("g-work", "a"))
        home.put("b.vcf", Self.card("b", "Boris", "Ivanov"))
        home.put("g.vcf", group("g-home", "b"))
        try syncBoth()
        #expect(try store.groups().map { "\($0.book)/\($0.name)/\($0.memberCount)" } == ["home/Work/1", "work/Work/1"])
        #expect(try store.contact(id: "a")?.groups == ["Work"])
        #expect(try store.contact(id: "b")?.groups == ["Work"])
        // A member added at home goes into home's group card only.
        try store.add(ContactDraft(id: "c", firstName: "Chloé", groups: ["Work"]), toBook: "home")
        try syncBoth()
        #expect(home.card("g.vcf")?.text.contains("urn:uuid:c") == true)
        #expect(work.card("g.vcf")?.text.contains("urn:uuid:c") == false)
        #expect(work.names == ["a.vcf", "g.vcf"])
    }

    @Test func aCollectionSyncsWithOneBook() throws {
        #expect(throws: ContactsDBError.invalidBook(.collectionBound(url: work.collection.absoluteString, book: "work"))) {
            try store.addRemote(Remote(name: "other", url: work.collection.absoluteString), transport: work)
        }
        #expect(throws: ContactsDBError.invalidBook(.hasRemote(name: "work", url: work.collection.absoluteString))) {
            try store.addRemote(Remote(name: "work", url: InMemoryAddressBook(port: 8083).collection.absoluteString),
                                transport: InMemoryAddressBook(port: 8083))
        }
        #expect(try store.books().map(\.name) == ["home", "local", "work"])
    }

    @Test func aRemovedRemoteLeavesALocalBookAndABoundOneSendsItsContacts() throws {
        work.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        try syncBoth()
        try store.removeRemote(named: "work")
        #expect(try ids(inBook: "work") == ["a"])
        #expect(try store.books().first { $0.name == "work" }?.remoteURL == nil)
        // Bound again, to another server, the book's contacts are pushed there.
        let other = InMemoryAddressBook(port: 8084)
        try store.addRemote(Remote(name: "work", url: other.collection.absoluteString), transport: other)
        #expect(counts(try store.sync(remote: "work", transport: other).pushed) == [1, 0, 0])
        #expect(other.names == ["a.vcf"])
    }

    @Test func aRenamedBookKeepsItsRemote() throws {
        work.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        try syncBoth()
        try store.renameBook("work", to: "office")
        #expect(try store.remotes().map(\.name) == ["home", "office"])
        try store.update(id: "a") { $0.note = "renamed" }
        #expect(counts(try store.sync(remote: "office", transport: work).pushed) == [0, 1, 0])
        #expect(throws: ContactsDBError.remoteNotFound(name: "work")) { try store.sync(remote: "work", transport: work) }
    }

    @Test func aBookThatHoldsContactsIsDeletedOnlyWhenTheyMove() throws {
        try store.createBook(named: "Archive")
        try store.add(ContactDraft(id: "x", firstName: "Xenia", groups: ["Old"]), toBook: "archive")
        #expect(throws: ContactsDBError.invalidBook(.notEmpty(name: "Archive", contacts: 1))) { try store.deleteBook("Archive") }
        #expect(throws: ContactsDBError.invalidBook(.isDefault("local"))) { try store.deleteBook("local") }
        try store.deleteBook("ARCHIVE", movingContactsTo: "local")
        #expect(try store.contact(id: "x")?.book == "local")
        #expect(try store.contact(id: "x")?.groups == ["Old"])
        #expect(try store.books().map(\.name) == ["home", "local", "work"])
    }

    func counts(_ counts: SyncCounts) -> [Int] { [counts.new, counts.changed, counts.deleted] }
}
