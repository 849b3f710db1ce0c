import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSync

/// Servers that do not keep to the RFCs, against ``InMemoryAddressBook``
/// made to behave as they do (docs/sync.md, "Servers that do not follow
/// the RFCs"): DAViCal answers a sync-token it forgot with every card and
/// rewrites each card PUT without answering an ETag; some servers keep no
/// sync-token at all, or give a card a new ETag each time it is served.
@Suite struct NonconformingServerSyncTests {
    typealias Device = SyncScenarioTests.Device
    func card(_ uid: String, _ first: String, _ last: String) -> String { SyncScenarioTests.card(uid, first, last) }

    func counts(_ counts: SyncCounts) -> [Int] { [counts.new, counts.changed, counts.deleted] }

    /// Issue 57, item 3a: the answer to a forgotten token that lists every
    /// card is checked against a PROPFIND, as a first sync lists, so a card
    /// deleted there meanwhile is deleted here; an answer listing a few
    /// changes costs no PROPFIND.
    @Test func aForgottenTokenAnsweredWithEveryCardDeletesWhatTheServerDeleted() throws {
        let server = InMemoryAddressBook()
        server.answersForgottenTokensInFull = true
        for (uid, name) in [("a", "Anna"), ("b", "Boris"), ("c", "Vera"), ("d", "Dora")] {
            server.put("\(uid).vcf", card(uid, name, "Petrova"))
        }
        let device = try Device(server)
        try device.sync()
        server.put("a.vcf", card("a", "Anna", "Ivanova"))
        let propfinds = server.requests("PROPFIND").count
        #expect(counts(try device.sync().pulled) == [0, 1, 0])
        #expect(server.requests("PROPFIND").count == propfinds, "a few changes: no PROPFIND")

        server.delete("b.vcf")
        server.forgetTokens()
        let report = try device.sync()
        #expect(counts(report.pulled) == [0, 0, 1] && counts(report.pushed) == [0, 0, 0])
        #expect(try device.ids() == ["a", "c", "d"])
        #expect(server.names == ["a.vcf", "c.vcf", "d.vcf"], "nothing pushed back")

        // The last card gone: an empty answer under a new token.
        for name in ["a.vcf", "c.vcf", "d.vcf"] { server.delete(name) }
        server.forgetTokens()
        #expect(counts(try device.sync().pulled) == [0, 0, 3])
        #expect(try device.ids().isEmpty)
    }

    /// Item 3b: a card the server rewrote on PUT (REV added, names
    /// upper-cased) is agreed on as the server holds it, the contact here
    /// keeping its own spelling: answered without an ETag, it is fetched
    /// in the sync that pushed it, so the syncs after fetch nothing; with
    /// an ETag it does not have, the next sync fetches it and counts
    /// nothing. With sync-tokens and without.
    @Test(arguments: [true, false], [true, false])
    func aCardTheServerRewritesOnPutIsNoChangeHere(_ keepsSyncTokens: Bool, _ answersWithETag: Bool) throws {
        let server = InMemoryAddressBook()
        (server.rewritesPuts, server.answersRewrittenPutsWithETag, server.keepsSyncTokens) = (true, answersWithETag, keepsSyncTokens)
        let device = try Device(server)
        var draft = ContactDraft(id: "anna", firstName: "Anna", lastName: "Petrova")
        draft.extra = ["X-Custom;x-flavour=plum:keep me", "item1.X-ABLabel:_$!<Other>!$_"]
        try device.store.add(draft)
        #expect(counts(try device.sync().pushed) == [1, 0, 0])
        #expect(server.card("anna.vcf")?.text.contains("X-CUSTOM;X-FLAVOUR=PLUM:keep me") == true, "rewritten")

        let multigets = { server.requests("REPORT").filter { $0.body?.contains("addressbook-multiget") == true }.count }
        var fetched = multigets()
        for round in 0..<2 {
            let report = try device.sync()
            #expect(counts(report.pulled) == [0, 0, 0] && counts(report.pushed) == [0, 0, 0])
            if answersWithETag, round == 0 { fetched = multigets() }
        }
        #expect(multigets() == fetched, "nothing fetched again")
        #expect(try device.contact("anna")?.extra == draft.extra, "its own spelling kept")

        // Another client's edit of the rewritten card merges as before.
        let rewritten = try #require(server.card("anna.vcf")?.text)
        server.put("anna.vcf", rewritten.replacingOccurrences(of: "END:VCARD", with: "NOTE:met in Kazan\r\nEND:VCARD"))
        let merged = try device.sync()
        #expect(counts(merged.pulled) == [0, 1, 0] && counts(merged.pushed) == [0, 0, 0])
        #expect(try device.contact("anna")?.note == "met in Kazan")
        #expect(try device.contact("anna")?.extra == draft.extra)
        #expect(try device.store.conflicts().isEmpty)
    }

    /// Item 3c: without sync-collection, a card pushed and then deleted by
    /// another client is deleted here, not pushed back as one the server
    /// dropped: it was fetched in the sync that pushed it.
    @Test func withoutSyncCollectionACardAnotherClientDeletedIsDeletedHere() throws {
        let server = InMemoryAddressBook()
        server.keepsSyncTokens = false
        let device = try Device(server)
        try device.add("vera", "Vera", "Sokolova")
        try device.add("oleg", "Oleg", "Sokolov")
        #expect(counts(try device.sync().pushed) == [2, 0, 0])
        server.delete("vera.vcf")
        let report = try device.sync()
        #expect(counts(report.pulled) == [0, 0, 1] && counts(report.pushed) == [0, 0, 0], "\(report.skipped)")
        #expect(try device.ids() == ["oleg"])
        #expect(server.names == ["oleg.vcf"])
    }

    /// Item 3e: a server that gives a card a new ETag each time it serves
    /// it makes each sync fetch the cards again; nothing is counted or
    /// written for them, and the sync says why once.
    @Test func aServerThatRewritesCardsAsItServesThemIsNamedOnce() throws {
        let server = InMemoryAddressBook()
        for index in 0..<12 { server.put("c\(index).vcf", card("c\(index)", "N\(index)", "Kim")) }
        server.rewritesOnEachGet = true
        let device = try Device(server)
        #expect(try device.sync().notices.isEmpty, "nothing known yet: nothing to say")
        let puts = server.requests("PUT").count
        let report = try device.sync()
        #expect(counts(report.pulled) == [0, 0, 0] && counts(report.pushed) == [0, 0, 0])
        #expect(report.notices.filter { $0.contains("new ETag") }.count == 1, "\(report.notices)")
        #expect(server.requests("PUT").count == puts)
    }
}
