import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSync

/// Groups through a sync with ``InMemoryAddressBook``: group cards in the
/// `cards` convention, CATEGORIES in the other (docs/sync.md, "Syncing with
/// a CardDAV server").
@Suite struct GroupSyncScenarioTests {
    typealias Device = SyncScenarioTests.Device

    static func appleGroup(_ uid: String, _ name: String, members: [String]) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "N:\(name);;;;", "FN:\(name)", "X-ADDRESSBOOKSERVER-KIND:group"]
            + members.map { "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\($0)" } + ["UID:\(uid)", "END:VCARD"])
            .joined(separator: "\r\n") + "\r\n"
    }

    func members(_ device: Device, _ group: String) throws -> [String] {
        try device.store.ids(matching: ContactQuery().filter(.group(group))).sorted()
    }

    func quiet(_ device: Device) throws -> Bool {
        let report = try device.sync()
        return [report.pulled.new, report.pulled.changed, report.pulled.deleted,
                report.pushed.new, report.pushed.changed, report.pushed.deleted] == [0, 0, 0, 0, 0, 0]
    }

    /// An address book of Apple's: three people and a group card.
    static func family() -> InMemoryAddressBook {
        let server = InMemoryAddressBook()
        server.put("a.vcf", SyncScenarioTests.card("a", "Anna", "Petrova"))
        server.put("b.vcf", SyncScenarioTests.card("b", "Boris", "Ivanov"))
        server.put("c.vcf", SyncScenarioTests.card("c", "Vera", "Sokolova"))
        server.put("fam.vcf", appleGroup("fam", "Family", members: ["a", "b"]))
        return server
    }

    @Test func aGroupCardThereIsAGroupHereAndTheRemoteKeepsCards() throws {
        let server = Self.family()
        let device = try Device(server)
        let report = try device.sync()
        #expect(report.pulled.new == 4)
        #expect(try device.ids() == ["a", "b", "c"], "the group card is no contact")
        #expect(try members(device, "Family") == ["a", "b"])
        #expect(try device.store.groups().first?.uid == "fam")
        #expect(try device.store.remote(named: "home")?.groups == .cards)
        #expect(try quiet(device))
        #expect(server.requests("PUT").isEmpty)
    }

    @Test func membersChangedOnBothSidesMergeAsASet() throws {
        let server = Self.family()
        let phone = try Device(server), laptop = try Device(server)
        try phone.sync(); try laptop.sync()
        try phone.store.addContacts(ids: ["c"], toGroup: "Family")
        try laptop.store.removeContacts(ids: ["a"], fromGroup: "Family")
        try phone.sync(); try laptop.sync(); try phone.sync()
        #expect(try members(phone, "Family") == ["b", "c"] && members(laptop, "Family") == ["b", "c"])
        let card = try #require(server.card("fam.vcf")?.text)
        #expect(card.contains("MEMBER:urn:uuid:c") && !card.contains("urn:uuid:a"))
        for device in [phone, laptop] { #expect(try quiet(device)) }
        // The members' own cards carry no CATEGORIES for the group.
        #expect(server.card("c.vcf")?.text.contains("CATEGORIES") == false)
    }

    @Test func aGroupMadeRenamedAndDeletedHereTravels() throws {
        let server = Self.family()
        let phone = try Device(server), laptop = try Device(server)
        try phone.sync(); try laptop.sync()
        try phone.store.createGroup(named: "Work")
        try phone.store.addContacts(ids: ["c"], toGroup: "Work")
        #expect(try phone.sync().pushed.new == 1)
        let uid = try #require(try phone.store.groups().first { $0.name == "Work" }?.uid)
        #expect(server.requests("PUT").last?.header("If-None-Match") == "*")
        try laptop.sync()
        #expect(try members(laptop, "Work") == ["c"] && laptop.store.groups().first { $0.name == "Work" }?.uid == uid)

        try laptop.store.renameGroup("Work", to: "Office")
        try laptop.sync(); try phone.sync()
        #expect(try phone.store.groups().map(\.name).sorted() == ["Family", "Office"])
        try phone.store.deleteGroup(named: "Office")
        #expect(try phone.sync().pushed.deleted == 1)
        try laptop.sync()
        #expect(try laptop.store.groups().map(\.name) == ["Family"])
        #expect(try laptop.ids() == ["a", "b", "c"], "a group's deletion keeps its contacts")
        for device in [phone, laptop] { #expect(try quiet(device)) }
    }

    @Test func aNewGroupCardWhosePutArrivedUnansweredIsNotMadeTwice() throws {
        let server = Self.family()
        let device = try Device(server)
        try device.sync()
        try device.store.createGroup(named: "Work")
        try device.store.addContacts(ids: ["a"], toGroup: "Work")
        server.losingAnswers = ["PUT"]
        #expect(throws: ContactsDBError.self) { try device.sync() }
        server.losingAnswers = []
        try device.sync()
        #expect(server.names.filter { server.card($0)?.text.contains("FN:Work") == true }.count == 1)
        #expect(try members(device, "Work") == ["a"])
        #expect(try quiet(device))
    }

    /// A member taken out after a push whose answer was lost stays out: the
    /// card the server holds is known as the one pushed, not a new one.
    @Test func aMemberRemovedAfterAnUnansweredPushStaysRemoved() throws {
        let server = Self.family()
        let device = try Device(server)
        try device.sync()
        try device.store.addContacts(ids: ["c"], toGroup: "Family")
        server.losingAnswers = ["PUT"]
        #expect(throws: ContactsDBError.self) { try device.sync() }
        server.losingAnswers = []
        #expect(server.card("fam.vcf")?.text.contains("urn:uuid:c") == true)
        try device.store.removeContacts(ids: ["a"], fromGroup: "Family")
        try device.sync()
        #expect(try members(device, "Family") == ["b", "c"])
        let card = try #require(server.card("fam.vcf")?.text)
        #expect(card.contains("urn:uuid:c") && !card.contains("urn:uuid:a"))
        #expect(try quiet(device))
    }

    @Test func withoutGroupCardsTheRemoteKeepsCategories() throws {
        let server = InMemoryAddressBook()
        server.put("a.vcf", SyncScenarioTests.card("a", "Anna", "Petrova"))
        let phone = try Device(server), laptop = try Device(server)
        try phone.sync(); try laptop.sync()
        #expect(try phone.store.remote(named: "home")?.groups == .categories)
        try phone.store.createGroup(named: "Family")
        try phone.store.addContacts(ids: ["a"], toGroup: "Family")
        try phone.sync(); try laptop.sync()
        #expect(server.names == ["a.vcf"] && server.card("a.vcf")?.text.contains("CATEGORIES:Family") == true)
        #expect(try members(laptop, "Family") == ["a"])
        for device in [phone, laptop] { #expect(try quiet(device)) }
    }

    @Test func cardsChosenAtAddTimePushGroupsToAnEmptyAddressBook() throws {
        let server = InMemoryAddressBook()
        let device = try Device(server, groups: .cards)
        try device.add("a", "Anna", "Petrova")
        try device.store.createGroup(named: "Family")
        try device.store.addContacts(ids: ["a"], toGroup: "Family")
        try device.sync()
        #expect(server.names.count == 2)
        #expect(server.card("a.vcf")?.text.contains("CATEGORIES") == false)
        #expect(try quiet(device))
    }
}
