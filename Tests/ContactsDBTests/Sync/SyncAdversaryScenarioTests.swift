import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSync

/// What a server answers and does not do, against ``InMemoryAddressBook``:
/// a PUT answered as stored and dropped, a card listed removed and made
/// again in two parts of a truncated answer, a second card of one UID
/// refused. Each holds the rule: nothing lost, nothing doubled. Moves
/// are in SeveralBooksSyncTests.
@Suite struct SyncAdversaryScenarioTests {
    typealias Device = SyncScenarioTests.Device

    static func card(_ uid: String, _ first: String, _ last: String, note: String? = nil) -> String {
        SyncScenarioTests.card(uid, first, last, note: note)
    }

    func counts(_ counts: SyncCounts) -> [Int] { [counts.new, counts.changed, counts.deleted] }

    // MARK: - A PUT answered and dropped

    /// Issue 56, item 9: a changed card's PUT the server answers as stored
    /// and keeps nothing of, with an ETag in the answer and without, the
    /// card listed by sync-collection and by PROPFIND. The edit stays here
    /// and goes again at each sync until a listing shows the server holds
    /// it; never reverted to the server's old version.
    @Test(arguments: [true, false], [true, false])
    func anEditWhosePutTheServerDropsIsKeptAndPushedAgain(_ answersWithETag: Bool, _ keepsSyncTokens: Bool) throws {
        let server = InMemoryAddressBook()
        server.keepsSyncTokens = keepsSyncTokens
        server.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        let device = try Device(server)
        try device.sync()
        try device.store.update(id: "a") { $0.company = "Acme" }
        server.keepsPuts = false
        server.answersPutsWithETag = answersWithETag
        #expect(counts(try device.sync().pushed) == [0, 1, 0])
        #expect(server.card("a.vcf")?.text.contains("ORG:Acme") == false, "dropped")
        let again = try device.sync()
        #expect(try device.contact("a")?.company == "Acme", "not reverted")
        #expect(counts(again.pulled) == [0, 0, 0] && counts(again.pushed) == [0, 1, 0], "pushed again")
        server.keepsPuts = true
        try device.sync()
        #expect(try device.contact("a")?.company == "Acme")
        #expect(server.card("a.vcf")?.text.contains("ORG:Acme") == true)
        let quiet = try device.sync()
        #expect(counts(quiet.pulled) == [0, 0, 0] && counts(quiet.pushed) == [0, 0, 0])
        #expect(try device.store.conflicts().isEmpty)
    }

    /// An edit the server answered as stored, then another device deleted
    /// before this one listed it again: the deletion holds here too, as
    /// the other device deleted the card that carried the edit.
    @Test func anAnsweredEditAnotherDeviceDeletedIsDeletedHere() throws {
        let server = InMemoryAddressBook()
        server.put("a.vcf", Self.card("a", "Anna", "Petrova"))
        let phone = try Device(server), laptop = try Device(server)
        try phone.sync(); try laptop.sync()
        try laptop.store.update(id: "a") { $0.company = "Acme" }
        try laptop.sync()
        try phone.sync()
        #expect(try phone.contact("a")?.company == "Acme")
        try phone.store.delete(ids: ["a"])
        try phone.sync()
        let report = try laptop.sync()
        #expect(report.pulled.deleted == 1 && report.conflicts == 0)
        #expect(try laptop.ids() == [] && server.names == [])
    }

    // MARK: - A listing in parts

    /// Issue 56, item 10: a sync-collection answered in parts (507 on the
    /// collection), the first naming a card removed, a later one naming it
    /// made again at the same href: the card is here after the sync, and
    /// stays on the server.
    @Test func aCardDeletedAndMadeAgainAcrossTwoPartsIsKept() throws {
        let (server, device) = try SyncScenarioTests.annaSynced()
        server.pageSize = 2
        server.delete("a.vcf")
        server.put("b.vcf", Self.card("b", "Boris", "Ivanov"))
        server.put("c.vcf", Self.card("c", "Vera", "Sokolova"))
        // Made again after the first part is answered, before the second.
        server.before["REPORT"] = { server.before["REPORT"] = { server.put("a.vcf", Self.card("a", "Anna", "Ivanova")) } }
        try device.sync()
        #expect(server.before.isEmpty, "both parts were asked for")
        #expect(try device.ids() == ["a", "b", "c"])
        #expect(try device.contact("a")?.lastName == "Ivanova")
        let quiet = try device.sync()
        #expect(counts(quiet.pulled) == [0, 0, 0] && counts(quiet.pushed) == [0, 0, 0])
        #expect(server.names == ["a.vcf", "b.vcf", "c.vcf"])
    }

    /// The other order: made, then removed in a later part, is removed.
    @Test func aCardMadeAndThenDeletedAcrossTwoPartsIsRemoved() throws {
        let (server, device) = try SyncScenarioTests.annaSynced()
        server.pageSize = 2
        server.put("a.vcf", Self.card("a", "Anna", "Ivanova"))
        server.put("b.vcf", Self.card("b", "Boris", "Ivanov"))
        server.put("c.vcf", Self.card("c", "Vera", "Sokolova"))
        server.before["REPORT"] = { server.before["REPORT"] = { server.delete("a.vcf") } }
        try device.sync()
        #expect(try device.ids() == ["b", "c"])
        #expect(server.names == ["b.vcf", "c.vcf"])
    }

    // MARK: - A second card of one UID

    /// Issue 56, item 20: a group card whose UID is a contact's, to a
    /// server that refuses a second card of one UID (Radicale answers 409,
    /// Xandikos 412): the group takes a UID of its own, said once, and its
    /// card reaches the server; later syncs are quiet.
    @Test(arguments: [409, 412])
    func aGroupWhoseUIDIsAContactsTakesAUIDOfItsOwnWhenTheServerRefusesIt(_ status: Int) throws {
        let server = InMemoryAddressBook()
        server.refusesSecondUID = status
        let device = try Device(server, groups: .cards)
        let cards = Self.card("same", "Anna", "Petrova") + Self.card("boris-1", "Boris", "Ivanov")
            + GroupSyncScenarioTests.appleGroup("same", "Team", members: ["boris-1"])
        _ = try device.store.importContacts(Data(cards.utf8), source: "same.vcf")
        let first = try device.sync()
        let uid = try #require(try device.store.groups().first { $0.name == "Team" }?.uid)
        #expect(uid != "same")
        #expect(first.skipped.isEmpty, "\(first.skipped)")
        #expect(first.notices.count == 1 && first.notices.first?.contains("Team") == true, "\(first.notices)")
        #expect(server.names.count == 3)
        #expect(server.names.contains { server.card($0)?.text.contains("UID:\(uid)") == true })
        let second = try device.sync()
        #expect(second.skipped.isEmpty && second.notices.isEmpty)
        #expect(counts(second.pulled) == [0, 0, 0] && counts(second.pushed) == [0, 0, 0])
        let other = try Device(server)
        try other.sync()
        #expect(try other.store.ids(matching: ContactQuery().filter(.group("Team"))) == ["boris-1"])
        #expect(try other.ids() == ["boris-1", "same"])
    }
}
