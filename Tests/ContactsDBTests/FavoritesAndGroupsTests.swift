import Foundation
import Testing
@testable import ContactsDB

@Suite struct FavoritesAndGroupsTests {
    let store: ContactStore
    let ids: [String]

    init() throws {
        store = try ContactStore.makeEmpty()
        ids = try store.add(["Ann", "Bob", "Cid", "Dan", "Eve"].map { ContactDraft(firstName: $0) }).map(\.id)
    }

    func favoriteNames() throws -> [String] { try store.favorites().map(\.displayName) }

    @Test func favoritesKeepTheUsersOrder() throws {
        try store.favorite(ids: [ids[2], ids[0], ids[4]])
        #expect(try favoriteNames() == ["Cid", "Ann", "Eve"])
        try store.favorite(ids: [ids[0], ids[1]])  // Ann stays where she is
        #expect(try favoriteNames() == ["Cid", "Ann", "Eve", "Bob"])
        try store.moveFavorite(id: ids[1], to: 1)
        #expect(try favoriteNames() == ["Bob", "Cid", "Ann", "Eve"])
        try store.moveFavorite(id: ids[1], to: 99)
        #expect(try favoriteNames() == ["Cid", "Ann", "Eve", "Bob"])
        try store.moveFavorite(id: ids[3], to: 2)  // not yet a favorite
        #expect(try favoriteNames() == ["Cid", "Dan", "Ann", "Eve", "Bob"])
        try store.unfavorite(ids: [ids[0], ids[2]])
        #expect(try favoriteNames() == ["Dan", "Eve", "Bob"])
        try store.delete(ids: [ids[4]])
        #expect(try favoriteNames() == ["Dan", "Bob"])
        let positions = try store.read { db in try Int.fetchAll(db, sql: "SELECT favoritePosition FROM contact WHERE favoritePosition IS NOT NULL ORDER BY 1") }
        #expect(positions == [1, 2], "positions have gaps")
        #expect(try store.ids(matching: ContactQuery().filter(.favorite)) == [ids[1], ids[3]])
    }

    @Test func unknownContactsChangeNoFavorite() throws {
        try store.favorite(ids: [ids[0]])
        #expect(captureError { try store.favorite(ids: [ids[1], "ghost"]) } == .contactsNotFound(ids: ["ghost"]))
        #expect(captureError { try store.unfavorite(ids: ["ghost", ids[0]]) } == .contactsNotFound(ids: ["ghost"]))
        #expect(try favoriteNames() == ["Ann"])
    }

    @Test func groupsAreCreatedRenamedAndDeletedWithoutTouchingContacts() throws {
        try store.createGroup(named: " Family ")
        try store.createGroup(named: "Work")
        #expect(captureError { try store.createGroup(named: "FAMILY") } == .groupExists(name: "Family"))
        try store.addContacts(ids: [ids[0], ids[1]], toGroup: "family")
        try store.addContacts(ids: [ids[1]], toGroup: "Work")
        try store.addContacts(ids: [ids[1]], toGroup: "Work")  // already in it
        #expect(try store.groups().map { [$0.name, String($0.memberCount)] } == [["Family", "2"], ["Work", "1"]])
        // Every group made here has a UUID of its own, for its group card.
        let uids = try store.groups().map(\.uid)
        #expect(Set(uids).count == 2 && uids.allSatisfy { UUID(uuidString: $0) != nil })
        #expect(try store.contact(id: ids[1])?.groups == ["Family", "Work"])

        try store.renameGroup("work", to: "Office")
        #expect(captureError { try store.renameGroup("Office", to: "family") } == .groupExists(name: "Family"))
        try store.renameGroup("family", to: "FAMILY")  // a change of case alone
        #expect(try store.contact(id: ids[1])?.groups == ["FAMILY", "Office"])
        #expect(try store.ids(matching: ContactQuery().filter(.group("office"))) == [ids[1]])

        try store.delete(ids: [ids[1]])
        #expect(try store.groups().map(\.memberCount) == [1, 0], "deleting a contact left its groups")
        try store.deleteGroup(named: "Family")
        #expect(try store.contact(id: ids[0])?.groups == [])
        #expect(try store.rowCount("contact") == 4)
    }

    @Test func badGroupRequestsChangeNothing() throws {
        try store.createGroup(named: "Family")
        try store.addContacts(ids: [ids[0]], toGroup: "Family")
        let counts = try store.tableCounts() + [try store.rowCount("contactGroup"), try store.rowCount("groupMember")]
        #expect(captureError { try store.addContacts(ids: [ids[1], "ghost"], toGroup: "Family") } == .contactsNotFound(ids: ["ghost"]))
        #expect(captureError { try store.addContacts(ids: [ids[1]], toGroup: "Nope") } == .groupNotFound(name: "Nope"))
        #expect(captureError { try store.removeContacts(ids: [ids[0]], fromGroup: "Nope") } == .groupNotFound(name: "Nope"))
        #expect(captureError { try store.deleteGroup(named: "Nope") } == .groupNotFound(name: "Nope"))
        #expect(captureError { try store.renameGroup("Nope", to: "Yes") } == .groupNotFound(name: "Nope"))
        #expect(invalidField { try store.createGroup(named: "   ") } == "name")
        #expect(invalidField { try store.createGroup(named: String(repeating: "g", count: 101)) } == "name")
        #expect(invalidField { try store.renameGroup("Family", to: "") } == "name")
        #expect(captureError { _ = try store.count(matching: ContactQuery().filter(.group("Nope"))) } == .groupNotFound(name: "Nope"))
        #expect(try store.tableCounts() + [try store.rowCount("contactGroup"), try store.rowCount("groupMember")] == counts)
    }

    @Test func theJSONFormatCarriesFavoritesAndGroups() throws {
        let json = #"[{"firstName": "Zed", "favorite": true, "groups": ["Friends", "friends", "Клуб"]}, {"firstName": "Yan", "favorite": false, "groups": null}]"#
        try store.importContacts(Data(json.utf8), source: "groups.json")
        let zed = try #require(try store.contacts(matching: ContactQuery().filter(.namePrefix("zed"))).first)
        #expect(zed.isFavorite && zed.groups == ["Friends", "Клуб"])
        #expect(zed.jsonText.contains(#""favorite": true, "groups": ["Friends", "Клуб"]"#))
        #expect(try store.groups().map(\.name) == ["Friends", "Клуб"])
        #expect(invalidField { try store.importContacts(Data(#"[{"firstName": "A", "favorite": "yes"}]"#.utf8), source: "x.json") } == "contacts[0].favorite")
        #expect(invalidField { try store.importContacts(Data(#"[{"firstName": "A", "groups": [""]}]"#.utf8), source: "x.json") } == "contacts[0].groups[0]")
    }
}
