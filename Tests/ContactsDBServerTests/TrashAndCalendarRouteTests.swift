import ContactsDB
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import ContactsDBServer

/// The trash and its restore, a contact's history and its versions, and
/// the birthday calendar: its feed and the upcoming days.
@Suite struct TrashAndCalendarRouteTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    @Test func aDeletedContactIsInTheTrashAndComesBack() async throws {
        try await server.test { client in
            #expect(try await client.send(.delete, "/api/contact?id=seed-acme").status == .ok)
            let trash = try #require(try await client.get("/api/trash").json() as? [[String: Any]])
            #expect(trash.map { $0["id"] as? String } == ["seed-acme"])
            #expect(trash[0]["by"] as? String == "web" && (trash[0]["deletedAt"] as? String)?.isEmpty == false)
            #expect((try await client.get("/api/trash?book=nowhere").json() as? [Any])?.isEmpty == true)

            let restored = try await client.send(.post, "/api/trash/restore", json: #"{"ids": ["seed-acme"]}"#)
            #expect(restored.status == .ok)
            #expect(try restored.object()["ids"] as? [String] == ["seed-acme"])
            #expect(try restored.object()["goneBooks"] as? [String] == [])
            #expect(try server.store.contact(id: "seed-acme") != nil)

            let again = try await client.send(.post, "/api/trash/restore", json: #"{"ids": ["seed-acme"]}"#)
            #expect(again.status == .notFound)
            let empty = try await client.send(.post, "/api/trash/restore", json: #"{"ids": []}"#)
            #expect(empty.status == .badRequest)
            #expect(try empty.object()["error"] as? String == "Give the ids of the contacts to restore.")
        }
    }

    @Test func aRestoreToAnIdInUseIs409AndAsNewComesBeside() async throws {
        try await server.test { client in
            #expect(try await client.send(.delete, "/api/contact?id=seed-acme").status == .ok)
            try server.store.importContacts(Data(#"{"contacts": [{"id": "seed-acme", "company": "Other"}]}"#.utf8), source: "other.json")
            let taken = try await client.send(.post, "/api/trash/restore", json: #"{"ids": ["seed-acme"]}"#)
            #expect(taken.status == .conflict)
            let beside = try await client.send(.post, "/api/trash/restore", json: #"{"ids": ["seed-acme"], "asNew": true}"#)
            #expect(beside.status == .ok)
            let id = try #require((try beside.object()["ids"] as? [String])?.first)
            #expect(id != "seed-acme")
            #expect(try server.store.contact(id: id) != nil)
        }
    }

    @Test func aContactsHistoryListsItsVersionsAndOneComesBack() async throws {
        let first = try #require(try server.store.contact(id: "seed-anna-muller")).revision
        try await server.test { client in
            let path = "/api/contact?id=seed-anna-muller"
            #expect(try await client.send(.patch, path, json: #"{"nickname": "Annie"}"#).status == .ok)
            let versions = try #require(try await client.get("/api/history?id=seed-anna-muller").json() as? [[String: Any]])
            #expect(versions.map { $0["revision"] as? Int } == [first + 1, first])
            #expect(versions[0]["by"] as? String == "web" && versions[0]["fields"] as? [String] == ["nickname"])
            #expect(Set(versions[1].keys) == ["revision", "at", "by", "fields"])

            let old = try await client.get("/api/history/version?id=seed-anna-muller&revision=\(first)").object()
            let contact = try #require(old["contact"] as? [String: Any])
            #expect(contact["firstName"] as? String == "Anna" && contact["nickname"] == nil)
            #expect(try await client.get("/api/history/version?id=seed-anna-muller").status == .badRequest)
            #expect(try await client.get("/api/history/version?id=seed-anna-muller&revision=99").status == .notFound)
            #expect(try await client.get("/api/history?id=nobody").status == .notFound)

            let restored = try await client.send(.post, "/api/history/restore?id=seed-anna-muller&revision=\(first)")
            #expect(restored.status == .ok)
            #expect(try restored.object()["id"] as? String == "seed-anna-muller")
            #expect(try restored.object()["revision"] as? Int == first + 2)
            #expect(try server.store.contact(id: "seed-anna-muller")?.nickname == nil)
            #expect(try await client.send(.post, "/api/history/restore?id=seed-anna-muller").status == .badRequest)
        }
    }

    @Test func theFeedAnswersItsOwnTokenAtTheMachinesHostAndABare404ToAnyOther() async throws {
        var draft = ContactDraft(firstName: "Grace", lastName: "Hopper")
        draft.birthday = "1906-12-09"
        try server.store.add(draft)
        let token = try server.store.calendarFeedToken()
        try await server.test { client in
            let feed = "/calendar/\(token)/\(BirthdayCalendar.feedFile)"
            let calendar = try await client.raw(.get, feed, [.hostHeader: client.machineHost])
            #expect(calendar.status == .ok)
            #expect(calendar.headers[.contentType] == "text/calendar; charset=utf-8")
            #expect(calendar.text.hasPrefix("BEGIN:VCALENDAR\r\n") && calendar.text.contains("SUMMARY:Grace Hopper (1906)"))
            #expect(calendar.headers[.setCookie] == nil)
            let atApp = try await client.get(feed)
            #expect(atApp.status == .ok && atApp.text == calendar.text)

            // The token with its last digit changed (a token ending in 0
            // would otherwise be its own "wrong" one, one run in sixteen).
            let nearMiss = String(token.dropLast()) + (token.last == "0" ? "1" : "0")
            for wrong in [nearMiss, "x", ""] {
                let answer = try await client.raw(.get, "/calendar/\(wrong)/\(BirthdayCalendar.feedFile)", [.hostHeader: client.machineHost])
                #expect(answer.status == .notFound, "\(wrong)")
                #expect(answer.body.readableBytes == 0 && answer.headers[.contentType] == nil, "\(wrong)")
            }
            let write = try await client.raw(.post, feed, [.hostHeader: client.machineHost])
            #expect(write.status == .forbidden)
        }
    }

    @Test func theUpcomingDaysListTheBirthdaysWithin() async throws {
        let today = Calendar(identifier: .gregorian).dateComponents([.month, .day], from: Date())
        var draft = ContactDraft(firstName: "Grace", lastName: "Hopper")
        draft.birthday = String(format: "1906-%02d-%02d", today.month!, today.day!)
        let grace = try server.store.add(draft).id
        try await server.test { client in
            let days = try #require(try await client.get("/api/birthdays?within=7").json() as? [[String: Any]])
            #expect(days.contains { $0["id"] as? String == grace && $0["displayName"] as? String == "Grace Hopper" })
            // A span below none is none: today alone.
            let negative = try await client.get("/api/birthdays?within=-5")
            let today = try await client.get("/api/birthdays?within=0")
            #expect(negative.status == .ok)
            #expect(NSArray(array: try #require(try negative.json() as? [Any])).isEqual(to: try #require(try today.json() as? [Any])))
            #expect((try today.json() as? [Any])?.count == 1)
        }
    }
}
