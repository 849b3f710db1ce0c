import ContactsDB
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import ContactsDBServer

/// One person in several contacts: duplicates, merges and their undoing,
/// links across books; and a sync's refusal of a remote that is not.
@Suite struct DuplicateRouteTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    /// Two cards of one person: one name, one email.
    func twins(inBook book: String? = nil) throws -> [String] {
        let ada = ContactDraft(firstName: "Ada", lastName: "Lovelace", emails: [Email(type: "home", value: "ada@example.org")])
        return try [server.store.add(ada).id, server.store.add(ada, toBook: book).id]
    }

    @Test func duplicatesAreListedWithTheirNamesAndMergedAndUnmerged() async throws {
        let ids = try twins()
        try await server.test { client in
            let sets = try #require(try await client.get("/api/duplicates").json() as? [[String: Any]])
            let found = try #require(sets.first { Set($0["ids"] as? [String] ?? []) == Set(ids) })
            #expect(found["names"] as? [String] == ["Ada Lovelace", "Ada Lovelace"])
            #expect(found["action"] as? String == "merge" && found["confidence"] as? String != nil)

            let merged = try await client.send(.post, "/api/merge", json: #"{"ids": ["\#(ids[0])", "\#(ids[1])"]}"#)
            #expect(merged.status == .ok)
            let answer = try merged.object()
            #expect(answer["id"] as? String == ids[0] && answer["merged"] as? [String] == [ids[1]])
            let mergeID = try #require(answer["mergeID"] as? Int)
            #expect(try server.store.contact(id: ids[1]) == nil)

            let merges = try #require(try await client.get("/api/merges").json() as? [[String: Any]])
            #expect(merges.map { $0["id"] as? Int } == [mergeID] && merges[0]["into"] as? String == ids[0])
            #expect((merges[0]["at"] as? String)?.isEmpty == false)

            let unmerged = try await client.send(.post, "/api/unmerge?id=\(mergeID)")
            #expect(unmerged.status == .ok)
            #expect(try unmerged.object()["restored"] as? [String] == [ids[1]])
            #expect(try unmerged.object()["survivor"] as? String == ids[0])
            #expect(try server.store.contact(id: ids[1]) != nil)
            #expect(try await client.send(.post, "/api/unmerge?id=\(mergeID)").status == .notFound)
        }
    }

    @Test func aMergeOrUnmergeTheStoreCannotMakeIsRefused() async throws {
        try await server.test { client in
            let one = try await client.send(.post, "/api/merge", json: #"{"ids": ["seed-acme"]}"#)
            #expect(one.status == .badRequest)
            #expect(try await client.send(.post, "/api/merge", json: #"{"ids": "seed-acme"}"#).status == .badRequest)
            #expect(try await client.send(.post, "/api/merge", json: #"{"ids": ["seed-acme", "nobody"]}"#).status == .notFound)
            let noNumber = try await client.send(.post, "/api/unmerge")
            #expect(noNumber.status == .badRequest)
            #expect(try noNumber.object()["error"] as? String == "Give the merge's number as id.")
            #expect(try await client.send(.post, "/api/unmerge?id=99").status == .notFound)
        }
    }

    @Test func contactsOfTwoBooksAreLinkedAndUnlinked() async throws {
        try server.store.createBook(named: "work")
        let ids = try twins(inBook: "work")
        try await server.test { client in
            let sets = try #require(try await client.get("/api/duplicates").json() as? [[String: Any]])
            #expect(sets.first { Set($0["ids"] as? [String] ?? []) == Set(ids) }?["action"] as? String == "link")
            let merge = try await client.send(.post, "/api/merge", json: #"{"ids": ["\#(ids[0])", "\#(ids[1])"]}"#)
            #expect(merge.status == .badRequest, "a merge would delete another book's card")

            let linked = try await client.send(.post, "/api/link", json: #"{"ids": ["\#(ids[0])", "\#(ids[1])"]}"#)
            #expect(linked.status == .ok)
            #expect(Set(try linked.object()["linked"] as? [String] ?? []) == Set(ids))
            let contact = try await client.get("/api/contact?id=\(ids[0])").object()
            let shown = try #require(contact["linked"] as? [[String: String]])
            #expect(shown == [["id": ids[1], "name": "Ada Lovelace", "book": "work"]])

            let unlinked = try await client.send(.post, "/api/unlink?id=\(ids[0])")
            #expect(unlinked.status == .ok)
            #expect(try unlinked.object()["from"] as? [String] == [ids[1]])
            #expect(try server.store.linkedIDs(of: ids[0]).isEmpty)
            let withinBook = try await client.send(.post, "/api/link", json: #"{"ids": ["seed-acme", "seed-anna-muller"]}"#)
            #expect(withinBook.status == .badRequest)
        }
    }

    @Test func aSyncWithARemoteThatIsNotIs404() async throws {
        try await server.test { client in
            let answer = try await client.send(.post, "/api/sync?remote=nowhere")
            #expect(answer.status == .notFound)
            #expect((try answer.object()["error"] as? String)?.contains("nowhere") == true)
        }
    }
}
