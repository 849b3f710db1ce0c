import ContactsDB
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import ContactsDBServer

/// Who may use the app (docs/cli.md, "Looking at contacts: the web
/// app"): the two hosts, the one-time codes traded for the cookie, the
/// Origin of writes, and the headers every answer carries.
@Suite struct AccessGuardTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    /// The code of an address the entry or `serve` gives.
    func code(in address: String) throws -> String {
        try #require(URLComponents(string: address)?.queryItems?.first { $0.name == "code" }?.value)
    }

    @Test func aRequestWithoutTheCookieIsRefusedWith401() async throws {
        try await server.test { client in
            for path in ["/", "/api/info", "/api/contact?id=seed-anna-muller", "/api/photo?id=seed-anna-muller"] {
                let answer = try await client.raw(.get, path, [.hostHeader: client.appHost])
                #expect(answer.status == .unauthorized, "\(path)")
                #expect(answer.text.contains("Open an address `contactsdb serve` printed"))
            }
            let wrong = try await client.raw(.get, "/api/info", [.hostHeader: client.appHost, .cookie: "contactsdb=\(String(repeating: "0", count: 64))"])
            #expect(wrong.status == .unauthorized)
            // A second cookie of the name neither stands in for the token nor hides it.
            let both = try await client.raw(.get, "/api/info", [.hostHeader: client.appHost, .cookie: "contactsdb=x; \(client.cookie)"])
            #expect(both.status == .ok)
        }
    }

    @Test func aForeignHostIsRefusedWith421EvenWithTheCookie() async throws {
        try await server.test { client in
            for host in ["evil.example:\(TestServer.port)", "localhost:\(TestServer.port)", "127.0.0.1:1",
                         client.appHost.replacingOccurrences(of: "\(TestServer.port)", with: "80")] {
                let answer = try await client.raw(.get, "/api/info", [.hostHeader: host, .cookie: client.cookie])
                #expect(answer.status == .misdirectedRequest, "\(host)")
                #expect(answer.headers[.setCookie] == nil)
            }
            let none = try await client.raw(.get, "/api/info", [.cookie: client.cookie])
            #expect(none.status == .misdirectedRequest)
            // The machine's host serves the entry and the feed, nothing else.
            let machine = try await client.raw(.get, "/api/info", [.hostHeader: client.machineHost, .cookie: client.cookie])
            #expect(machine.status == .misdirectedRequest)
        }
    }

    @Test func aWriteFromAnotherOriginOrNoneIsRefusedWith403() async throws {
        try await server.test { client in
            let path = "/api/contact?id=seed-anna-muller"
            for origin in ["http://evil.example", "null", "http://\(client.machineHost)", "https://\(client.appHost)"] {
                let answer = try await client.raw(.delete, path, [.hostHeader: client.appHost, .cookie: client.cookie, .origin: origin])
                #expect(answer.status == .forbidden, "\(origin)")
            }
            let none = try await client.raw(.delete, path, [.hostHeader: client.appHost, .cookie: client.cookie])
            #expect(none.status == .forbidden)
            #expect(none.text == "A change must come from the app's own page.\n")
            let atMachine = try await client.raw(.post, "/?code=x", [.hostHeader: client.machineHost, .origin: "http://\(client.machineHost)"])
            #expect(atMachine.status == .forbidden)
            #expect(try server.store.contact(id: "seed-anna-muller") != nil, "nothing was deleted")
        }
    }

    @Test func theEntryTradesACodeForTheAppHostAndThatHostsCodeForTheCookie() async throws {
        let entry = server.signIn.entryAddress(port: TestServer.port)
        #expect(entry.hasPrefix("http://127.0.0.1:\(TestServer.port)/?code="))
        let code = try code(in: entry)
        try await server.test { client in
            let first = try await client.raw(.get, "/?code=\(code)", [.hostHeader: client.machineHost])
            #expect(first.status == .seeOther)
            #expect(first.headers[.setCookie] == nil, "the machine's host sets no cookie")
            let next = try #require(first.headers[.location])
            #expect(next.hasPrefix("http://\(client.appHost)/?code="))
            let appCode = try self.code(in: next)
            #expect(appCode != code)

            let second = try await client.raw(.get, "/?code=\(appCode)", [.hostHeader: client.appHost])
            #expect(second.status == .seeOther)
            #expect(second.headers[.location] == "/")
            let cookie = try #require(second.headers[.setCookie])
            let attributes = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(attributes.first == "contactsdb=\(server.signIn.token)")
            #expect(Set(attributes.dropFirst()) == ["Path=/", "HttpOnly", "SameSite=Strict"])
            #expect(!cookie.lowercased().contains("domain"))
            let signedIn = try await client.raw(.get, "/api/info", [.hostHeader: client.appHost, .cookie: String(attributes[0])])
            #expect(signedIn.status == .ok)
        }
    }

    /// A code past its lifetime opens nothing and is used up all the same.
    @Test func aCodePastItsTimeIsRefused() {
        let codes = SignInCodes(lifetime: 0)
        let code = codes.make()
        #expect(!codes.take(code))
        #expect(!codes.take(code))
        let timely = SignInCodes()
        let fresh = timely.make()
        #expect(timely.take(fresh) && !timely.take(fresh))
    }

    @Test func aUsedOrUnknownCodeIsRefusedAtEitherHost() async throws {
        let (machineCode, appCode) = (server.signIn.codes.make(), server.signIn.codes.make())
        try await server.test { client in
            #expect(try await client.raw(.get, "/?code=\(machineCode)", [.hostHeader: client.machineHost]).status == .seeOther)
            let again = try await client.raw(.get, "/?code=\(machineCode)", [.hostHeader: client.machineHost])
            #expect(again.status == .unauthorized)
            #expect(again.text == AccessGuard<BasicRequestContext>.usedCode + "\n")
            #expect(try await client.raw(.get, "/", [.hostHeader: client.machineHost]).status == .unauthorized)

            #expect(try await client.raw(.get, "/?code=\(appCode)", [.hostHeader: client.appHost]).status == .seeOther)
            let used = try await client.raw(.get, "/?code=\(appCode)", [.hostHeader: client.appHost])
            #expect(used.status == .unauthorized)
            #expect(used.headers[.setCookie] == nil)
            let unknown = try await client.raw(.get, "/?code=\(String(repeating: "a", count: 32))", [.hostHeader: client.appHost])
            #expect(unknown.status == .unauthorized)
            // An old code in a signed-in browser's history just opens the app.
            let old = try await client.raw(.get, "/?code=\(appCode)", [.hostHeader: client.appHost, .cookie: client.cookie])
            #expect(old.status == .seeOther && old.headers[.location] == "/")
        }
    }

    @Test func everyAnswerIsNotSniffedNotStoredAndSendsNoReferrer() async throws {
        let calendar = "/calendar/\(try server.store.calendarFeedToken())/\(BirthdayCalendar.feedFile)"
        try await server.test { client in
            let answers = [
                try await client.get("/"), try await client.get("/api/info"), try await client.get("/api/contact"),
                try await client.get("/api/contact?id=nobody"), try await client.get("/api/no-such-route"),
                try await client.get("/api/photo?id=seed-anna-muller"), try await client.send(.post, "/api/merge", json: "{}"),
                try await client.raw(.get, "/api/info", [.hostHeader: client.appHost]),
                try await client.raw(.get, "/api/info", [.hostHeader: "evil.example"]),
                try await client.raw(.delete, "/api/contact?id=x", [.hostHeader: client.appHost, .cookie: client.cookie]),
                try await client.raw(.get, "/?code=x", [.hostHeader: client.machineHost]),
                try await client.raw(.get, calendar, [.hostHeader: client.machineHost]),
                try await client.raw(.get, "/calendar/wrong/\(BirthdayCalendar.feedFile)", [.hostHeader: client.machineHost]),
            ]
            for answer in answers {
                #expect(answer.headers[.xContentTypeOptions] == "nosniff", "\(answer.head)")
                #expect(answer.headers[.cacheControl] == "no-store", "\(answer.head)")
                #expect(answer.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", "\(answer.head)")
                #expect(answer.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'self'") == true, "\(answer.head)")
                #expect(answer.headers[HTTPField.Name("Access-Control-Allow-Origin")!] == nil)
            }
        }
    }
}
