import Foundation
import Testing
@testable import ContactsDB

/// Revisions, the change list, conflicts and observation, through the
/// library.
@Suite struct ChangeLogTests {
    let store: ContactStore
    let ids: [String]

    init() throws {
        store = try ContactStore.makeEmpty()
        ids = try store.add(["Ann", "Bob", "Cid", "Dan"].map { ContactDraft(firstName: $0) }).map(\.id)
    }

    func revision(_ id: String) throws -> Int { try #require(try store.contact(id: id)).revision }

    /// What changed since `token`, by id.
    func kinds(since token: ChangeToken) throws -> [String: ContactChange.Kind] {
        Dictionary(uniqueKeysWithValues: try store.changes(since: token).changes.map { ($0.id, $0.kind) })
    }

    @Test func oneWriteGivesEveryContactItTouchesOneNewRevision() throws {
        let added = try store.add([ContactDraft(firstName: "Eve"), ContactDraft(firstName: "Fay")])
        #expect(added[0].revision == added[1].revision)
        #expect(added[0].revision > (try revision(ids[0])))
        let updated = try store.update(id: ids[0]) { $0.age = 40 }
        #expect(updated.revision > added[0].revision)
        #expect(try store.changeToken().revision == updated.revision)
    }

    @Test func favoritesAndGroupsAreUpdatesOfTheirContactsOnly() throws {
        try store.favorite(ids: [ids[0], ids[1], ids[2]])
        try store.createGroup(named: "Team")
        try store.addContacts(ids: [ids[3]], toGroup: "Team")
        var token = try store.changeToken()
        let before = try ids.map(revision)

        // Ann leaves the favorites: Bob and Cid move up, unchanged.
        try store.unfavorite(ids: [ids[0]])
        #expect(try kinds(since: token) == [ids[0]: .updated])
        #expect(try revision(ids[1]) == before[1] && revision(ids[2]) == before[2])

        for (change, changed) in [
            ({ try store.renameGroup("Team", to: "Crew") }, ids[3]),
            ({ try store.removeContacts(ids: [ids[3]], fromGroup: "Crew") }, ids[3]),
            ({ try store.addContacts(ids: [ids[1]], toGroup: "Crew") }, ids[1]),
            ({ try store.deleteGroup(named: "Crew") }, ids[1]),
        ] as [(() throws -> Void, String)] {
            token = try store.changeToken()
            try change()
            #expect(try kinds(since: token) == [changed: .updated])
        }
    }

    @Test func aDeletedContactLeavesATombstoneUntilItsIdIsAddedAgain() throws {
        let start = try store.changeToken()
        try store.delete(ids: [ids[0]])
        let deleted = try store.changeToken()
        #expect(try kinds(since: start) == [ids[0]: .deleted])
        try store.add(ContactDraft(id: ids[0], firstName: "Ann again"))
        #expect(try kinds(since: deleted) == [ids[0]: .added])
        #expect(try store.rowCount("contactTombstone") == 0)
    }

    @Test func noTokenListsEveryContactAsAdded() throws {
        try store.delete(ids: [ids[3]])
        let all = try store.changes(since: nil)
        #expect(Set(all.changes.map(\.id)) == Set(ids.dropLast()))
        #expect(all.changes.allSatisfy { $0.kind == .added })
        #expect(all.token == (try store.changeToken()))
        #expect(ChangeToken(all.token.description) == all.token)
    }

    @Test func tokensOfAnotherDatabaseOrFromTheFutureAreRefused() throws {
        let other = try ContactStore.makeEmpty().changeToken()
        #expect(captureError { _ = try store.changes(since: other) } == .foreignChangeToken(token: other.description))
        let current = try store.changeToken()
        let ahead = ChangeToken(databaseIdentity: current.databaseIdentity, revision: current.revision + 1)
        #expect(captureError { _ = try store.changes(since: ahead) } == .foreignChangeToken(token: ahead.description))
        for text in ["", "abc", current.description + "x", "-1"] {
            #expect(captureError { _ = try store.changeToken(text) } == .foreignChangeToken(token: text))
        }
    }

    @Test func compactingRefusesOnlyTokensThatMayMissADeletion() throws {
        let beforeDelete = try store.changeToken()
        try store.delete(ids: [ids[0]])
        let afterDelete = try store.changeToken()
        try store.delete(ids: [ids[1]])
        let afterBoth = try store.changeToken()
        #expect(try store.compactChanges(before: Date(timeIntervalSince1970: 0)) == 0)
        #expect(try kinds(since: beforeDelete).count == 2)

        #expect(try store.compactChanges(before: Date().addingTimeInterval(60)) == 2)
        #expect(captureError { _ = try store.changes(since: beforeDelete) } == .expiredChangeToken(token: beforeDelete.description))
        #expect(captureError { _ = try store.changes(since: afterDelete) } == .expiredChangeToken(token: afterDelete.description))
        #expect(try store.changes(since: afterBoth).changes.isEmpty)
    }

    @Test func aWriteAfterTheRevisionReadIsAConflictAndChangesNothing() throws {
        let read = try revision(ids[0])
        try store.update(id: ids[0], ifRevision: read) { $0.age = 1 }
        let current = try revision(ids[0])
        let expected = ContactsDBError.revisionConflict(id: ids[0], expected: read, current: current)
        #expect(captureError { try store.update(id: ids[0], ifRevision: read) { $0.age = 2 } } == expected)
        #expect(captureError { try store.delete(ids: [ids[1], ids[0]], ifRevision: read) } == expected)
        #expect(try store.contact(id: ids[0])?.age == 1)
        #expect(try store.contact(id: ids[1]) != nil)
        // The newest revision seen anywhere is no conflict.
        try store.delete(ids: [ids[0]], ifRevision: try store.changeToken().revision)
        #expect(try store.contact(id: ids[0]) == nil)
    }

    @Test func anImportIsOneRevisionAndAFailedOneLeavesNoChange() throws {
        let token = try store.changeToken()
        let json = Data(#"[{"firstName": "Gus"}, {"firstName": "Hal", "age": 1000}]"#.utf8)
        #expect(captureError { _ = try store.importContacts(json, source: "bad.json") } != nil)
        #expect(try store.changes(since: token).changes.isEmpty)
        try store.importContacts(Data(#"[{"firstName": "Gus"}, {"firstName": "Hal"}]"#.utf8), source: "good.json")
        let changes = try store.changes(since: token).changes
        #expect(changes.count == 2 && Set(changes.map(\.revision)).count == 1)
    }

    /// The result first, then one result per write that changes it, and
    /// none for a write that does not.
    @Test func observingDeliversEachChangedResultOnly() async throws {
        var results = store.observe(ContactQuery().filter(.namePrefix("Ann")), checkingEvery: .milliseconds(5))
            .makeAsyncIterator()
        #expect(try await results.next()?.map(\.firstName) == ["Ann"])
        try store.update(id: ids[1]) { $0.age = 3 }  // not in the result
        try store.update(id: ids[0]) { $0.age = 30 }
        #expect(try await results.next()?.map(\.age) == [30])
        try store.add(ContactDraft(firstName: "Anna"))
        #expect(try await results.next()?.map(\.firstName) == ["Ann", "Anna"])
    }

    /// Each commit's changed contacts after the call, one set a commit;
    /// a commit that changes no contact delivers nothing.
    @Test func observingChangesDeliversWhatEachCommitChanged() async throws {
        var sets = store.observeChanges(checkingEvery: .milliseconds(5)).makeAsyncIterator()
        try store.update(id: ids[1]) { $0.age = 3 }
        #expect(try await sets.next()?.changes.map(\.id) == [ids[1]])
        try store.createGroup(named: "Nobody")  // no contact changes
        try store.delete(ids: [ids[2], ids[3]])
        let deleted = try #require(try await sets.next())
        #expect(Set(deleted.changes.map(\.id)) == [ids[2], ids[3]])
        #expect(deleted.changes.allSatisfy { $0.kind == .deleted })
        #expect(deleted.token == (try store.changeToken()))
    }
}
