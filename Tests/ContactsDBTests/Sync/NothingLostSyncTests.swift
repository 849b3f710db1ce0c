import ContactsDB
@testable import ContactsDBSync
import Foundation
import Testing

/// What a sync deletes or loses in a conflict comes back (SPEC §Nothing
/// lost, even by mistake), against the in-memory address book.
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
}
