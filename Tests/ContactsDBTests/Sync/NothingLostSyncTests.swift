import ContactsDB
@testable import ContactsDBSync
import Foundation
import Testing

/// What a sync deletes or loses in a conflict comes back (docs/cli.md,
/// "Nothing lost, even by mistake"), against the in-memory address book.
@Suite struct NothingLostSyncTests {
    typealias Scenario = SyncScenarioTests

    @Test func aConflictsLosingVersionComesBackAsAnUpdateAndIsPushed() throws {
        let (server, device) = try Scenario.annaSynced()
        try device.store.update(id: "a") { $0.lastName = "Local" }
        server.put("a.vcf", Scenario.card("a", "Anna", "Server"))
        #expect(try device.sync(prefer: .server).conflicts == 1)
        let conflict = try #require(try device.store.conflicts().first)
        #expect(try device.contact("a")?.lastName == "Server")

        let restored = try #require(try device.store.restoreConflict(id: conflict.id))
        #expect(restored.lastName == "Local")
        #expect(try device.store.conflicts().isEmpty)
        let versions = try device.store.history(id: "a")
        #expect(versions.first?.by == .restore && versions.first?.fields == ["lastName"])
        #expect(try device.store.contact(id: "a", revision: versions[1].revision).lastName == "Server")
        #expect(throws: ContactsDBError.conflictNotFound(id: conflict.id)) { try device.store.restoreConflict(id: conflict.id) }

        try device.sync()
        #expect(server.card("a.vcf")?.text.contains("N:Local;Anna") == true)
    }

    @Test func aDeletionPulledBySyncIsInTheTrashAndARestoreIsPushedAgain() throws {
        let (server, device) = try Scenario.annaSynced()
        server.delete("a.vcf")
        #expect(try device.sync().pulled.deleted == 1)
        #expect(try device.contact("a") == nil)
        let trashed = try device.store.trash()
        #expect(trashed.map(\.id) == ["a"] && trashed.first?.deletedBy == .sync(remote: "home") && trashed.first?.book == "home")

        try device.store.restore(ids: ["a"])
        #expect(try device.contact("a")?.lastName == "Petrova")
        #expect(try device.sync().pushed.new == 1)
        let text = try #require(server.card("a.vcf")?.text)
        #expect(text.contains("UID:a") && text.contains("N:Petrova;Anna"))
    }

    /// A contact deleted here whose card the server edited meanwhile comes
    /// back (an edit beats a deletion) out of the trash, with every
    /// version it had: none lost to a fresh history.
    @Test func aCardEditedThereAfterADeletionHereBringsTheContactBackWithItsHistory() throws {
        let (server, device) = try Scenario.annaSynced()
        try device.store.update(id: "a") { $0.note = "first note" }
        try device.store.update(id: "a") { $0.note = "second note" }
        try device.sync()
        try device.store.delete(ids: ["a"])
        server.put("a.vcf", Scenario.card("a", "Anna", "Petrova", note: "edited there"))

        try device.sync()
        #expect(try device.contact("a")?.note == "edited there")
        #expect(try device.store.trash().isEmpty)
        let versions = try device.store.history(id: "a")
        #expect(versions.first?.by == .sync(remote: "home") && versions.first?.fields == ["note"])
        let notes = try versions.map { try device.store.contact(id: "a", revision: $0.revision).note }
        #expect(notes == ["edited there", "second note", "first note", nil])
    }

    @Test func keepBothKeepsTheLocalVersionAsASecondContactPushedAsACardOfItsOwn() throws {
        let server = InMemoryAddressBook()
        server.put("a.vcf", Scenario.card("a", "Anna", "Petrova", tel: "+79123456789"))
        let device = try Scenario.Device(server)
        try device.sync()
        try device.store.setConflictHandling(.keepBoth, forRemote: "home")
        #expect(try device.store.remotes().first?.conflicts == .keepBoth)
        try device.store.update(id: "a") { $0.note = "met here" }
        server.put("a.vcf", Scenario.card("a", "Anna", "Petrova", note: "met there", tel: "+79123456789"))

        let report = try device.sync(prefer: .local)
        #expect(report.conflicts == 0 && report.keptBoth == 1)
        #expect(try device.store.conflicts().isEmpty)
        #expect(try device.contact("a")?.note == "met there")
        let other = try #require(try device.ids().first { $0 != "a" })
        #expect(try device.ids().count == 2 && device.contact(other)?.note == "met here")
        let sets = try device.store.duplicates()
        #expect(sets.count == 1 && sets.first?.confidence == .certain && Set(sets.first?.ids ?? []) == ["a", other])
        #expect(server.card("a.vcf")?.text.contains("NOTE:met there") == true)
        let card = try #require(server.card(other + ".vcf")?.text)
        #expect(card.contains("NOTE:met here") && card.contains("UID:\(other)"))
        #expect(counts(try device.sync().pushed) == [0, 0, 0])
    }

    /// Kept both, the two versions are one certain set whatever the
    /// conflict changed: their names, or the one phone that joined them.
    @Test(arguments: [("Local", "Server", "+79123456789", "+79123456789"),
                      ("Petrova", "Petrova", "+79110000001", "+79110000002")])
    func bothVersionsKeptAreOneCertainSetWhateverTheConflictChanged(
        local: String, server last: String, localTel: String, serverTel: String
    ) throws {
        let server = InMemoryAddressBook()
        server.put("a.vcf", Scenario.card("a", "Anna", "Petrova", tel: "+79123456789"))
        let device = try Scenario.Device(server)
        try device.sync()
        try device.store.setConflictHandling(.keepBoth, forRemote: "home")
        try device.store.update(id: "a") { draft in
            draft.lastName = local
            draft.phones = [Phone(value: localTel)]
        }
        server.put("a.vcf", Scenario.card("a", "Anna", last, tel: serverTel))

        #expect(try device.sync().keptBoth == 1)
        let other = try #require(try device.ids().first { $0 != "a" })
        let sets = try device.store.duplicates()
        #expect(sets.count == 1 && sets.first?.confidence == .certain && Set(sets.first?.ids ?? []) == ["a", other])
        #expect(sets.first?.reasons.contains("kept both in a sync conflict") == true)
    }

    func counts(_ counts: SyncCounts) -> [Int] { [counts.new, counts.changed, counts.deleted] }
}
