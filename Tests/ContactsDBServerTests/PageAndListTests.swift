import ContactsDB
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import ContactsDBServer

/// The page and what frames the list: `/`, `/api/list` and `/api/info`.
@Suite struct PageAndListTests {
    let server: TestServer

    init() throws { server = try TestServer() }

    /// The first capture of `regex` in `text`.
    func first(_ regex: Regex<(Substring, Substring)>, in text: String) throws -> String {
        String(try #require(text.firstMatch(of: regex)).1)
    }

    @Test func thePageRunsOnlyItsOwnInlinePartsByANonceOfItsPolicy() async throws {
        try await server.test { client in
            let page = try await client.get("/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            let nonce = try first(/script-src 'nonce-([0-9a-f]+)'/, in: policy)
            #expect(nonce.count == 32)
            #expect(try first(/style-src 'nonce-([0-9a-f]+)'/, in: policy) == nonce)
            #expect(policy.contains("frame-ancestors 'none'") && policy.contains("base-uri 'none'"))
            #expect(try first(/<style nonce="([^"]*)">/, in: page.text) == nonce)
            #expect(try first(/<script type="module" src="\/app\/app.js" nonce="([^"]*)">/, in: page.text) == nonce)
            // The style, the entry module and each module named up front;
            // nothing else runs, and nothing under another nonce.
            let nonces = page.text.matches(of: /nonce="([^"]*)"/).map { String($0.1) }
            #expect(nonces.count == 1 + Page.modules.count && Set(nonces) == [nonce], "\(nonces)")
            let again = try await client.get("/")
            #expect(try first(/script-src 'nonce-([0-9a-f]+)'/, in: try #require(again.headers[.contentSecurityPolicy])) != nonce)
        }
    }

    /// Each module the document names is served as JavaScript behind the
    /// guard; a name the page has no module of is not found.
    @Test func theModulesTheDocumentNamesAreServed() async throws {
        try await server.test { client in
            let page = try await client.get("/")
            let named = Set(page.text.matches(of: /(?:href|src)="\/app\/([a-z]+\.js)"/).map { String($0.1) })
            #expect(named == Set(Page.modules.keys))
            for name in named {
                let module = try await client.get("/app/" + name)
                #expect(module.status == .ok && module.headers[.contentType] == "text/javascript; charset=utf-8", "\(name)")
                #expect(module.headers[.xContentTypeOptions] == "nosniff" && !module.text.isEmpty, "\(name)")
            }
            #expect(try await client.get("/app/other.js").status == .notFound)
            #expect(try await client.get("/app/..%2Fpage.swift").status == .notFound)
        }
    }

    /// `Package.swift` embeds the page's modules and `Page.modules` serves
    /// them: a file in `Page/` that either leaves out would fail to load.
    @Test func everyModuleInThePageFolderIsServed() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/ContactsDBServer/Page").standardizedFileURL
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".js") }
        #expect(Set(files) == Set(Page.modules.keys))
        for name in files {
            #expect(Page.modules[name] == Array(try Data(contentsOf: folder.appendingPathComponent(name))), "\(name)")
        }
    }

    @Test func thePreloadedAnswersAreThoseOfTheirRoutes() async throws {
        try await server.test { client in
            let page = try await client.get("/")
            let preloaded = try first(/<script type="application\/json" id="preloaded">(.*?)<\/script>/, in: page.text)
            let answers = try #require(try JSONSerialization.jsonObject(with: Data(preloaded.utf8)) as? [String: Any])
            #expect(Set(answers.keys) == Set(Page.preloadedPaths))
            for path in Page.preloadedPaths {
                let answer = try await client.get(path)
                #expect(answer.status == .ok)
                #expect(NSDictionary(dictionary: try answer.object()).isEqual(to: try #require(answers[path] as? [String: Any])), "\(path)")
            }
        }
    }

    @Test func theInfoNamesWhatTheFormsAndFiltersOffer() async throws {
        try server.store.createGroup(named: "Team")
        try server.store.addContacts(ids: ["seed-anna-muller", "seed-acme"], toGroup: "Team")
        try await server.test { client in
            let info = try await client.get("/api/info").object()
            let groups = try #require(info["groups"] as? [[String: Any]])
            #expect(groups.map { $0["name"] as? String } == ["Team"] && groups.map { $0["memberCount"] as? Int } == [2])
            let books = try #require(info["books"] as? [[String: Any]])
            #expect(books.count == 1 && books[0]["count"] as? Int == 10 && books[0]["isDefault"] as? Bool == true)
            #expect((info["sorts"] as? [String]) == ContactSort.Key.allCases.map(\.rawValue))
            #expect((info["attributes"] as? [String]) == ContactAttributes.named.map(\.name))
            #expect(info["photoBytes"] as? Int == PhotoImage.maximumBytes)
            #expect(info["feedPath"] as? String == BirthdayCalendar.feedPath(token: try server.store.calendarFeedToken()))
            #expect(info["trashDays"] as? Int == (try server.store.trashDays()))
            #expect((info["remotes"] as? [Any])?.isEmpty == true)
            // The card's form as the library declares it, for the page's form.
            let card = try #require(info["card"] as? [String: Any])
            let declared = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(CardForm.card)) as? [String: Any])
            #expect(NSDictionary(dictionary: card).isEqual(to: declared))
        }
    }

    @Test func theListPagesSectionsAndFilters() async throws {
        try await server.test { client in
            let first = try await client.get("/api/list?sort=name&meta=1&offset=0&limit=3").object()
            #expect(first["total"] as? Int == 10 && first["offset"] as? Int == 0)
            let sections = try #require(first["sections"] as? [[String: Any]])
            #expect(sections.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 10)
            let contacts = try #require(first["contacts"] as? [[String: Any]])
            #expect(contacts.count == 3)
            #expect(Set(contacts[0].keys).isSuperset(of: ["id", "name", "section", "photo", "favorite", "revision"]))
            let rest = try await client.get("/api/list?sort=name&offset=3&limit=500").object()
            #expect((rest["contacts"] as? [Any])?.count == 7 && rest["total"] == nil && rest["sections"] == nil)

            let found = try await client.get("/api/list?text=Anna&meta=1").object()
            #expect(found["total"] as? Int == 1)
            #expect(((found["contacts"] as? [[String: Any]])?.first?["id"] as? String) == "seed-anna-muller")
            let unsectioned = try await client.get("/api/list?sort=name&meta=1&sections=0&limit=0").object()
            #expect(unsectioned["total"] as? Int == 10 && unsectioned["sections"] == nil)
            #expect((unsectioned["contacts"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aListRequestWithAnUnknownSortOrFilterIs400() async throws {
        try await server.test { client in
            let sort = try await client.get("/api/list?sort=shoeSize")
            #expect(sort.status == .badRequest)
            #expect((try sort.object()["error"] as? String)?.hasPrefix("There is no sort \"shoeSize\"") == true)
            let filter = try await client.get("/api/list?has=wings")
            #expect(filter.status == .badRequest)
            #expect(filter.headers[.contentType] == "application/json; charset=utf-8")
            #expect((try filter.object()["error"] as? String)?.hasPrefix("There is no filter \"wings\"") == true)
        }
    }
}
