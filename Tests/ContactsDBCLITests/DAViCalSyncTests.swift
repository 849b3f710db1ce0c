import ContactsDBTestSupport
import Foundation
import Testing

/// Sync against DAViCal (docs/sync.md, "The servers"), which keeps less to
/// the RFCs than Radicale and Xandikos: it rewrites each card it is given
/// and answers the PUT without an ETag, and it answers a sync-token it no
/// longer knows (one older than a week) with every card instead of 403.
@Suite(.serialized, .enabled(if: DAVPeers.isAvailable && !DAVServer.installed([.davical]).isEmpty,
                             "DAViCal is not installed: run .ci/run"))
struct DAViCalSyncTests {
    /// Cards of real producers, which DAViCal rewrites: names and
    /// parameters upper-cased, properties reordered, quoting dropped.
    static let corpus = DAVPeers.root.appendingPathComponent("Tests/Interop/fidelity-corpus")

    @Test func cardsDAViCalRewritesAreNoChangeHereAndNotFetchedAgain() throws {
        let directory = TemporaryDirectory()
        let server = try DAVServer(.davical, in: directory)
        let cli = server.client(CLIRunner())
        let db = try cli.makeEmptyDatabase("a.sqlite", in: directory)
        #expect(try cli.run(db: db, ["remote", "add", "home", server.addressBook] + server.credentials).exitCode == 0)
        for producer in ["apple", "nextcloud", "evolution", "google", "outlook"] {
            let imported = try cli.run(db: db, ["import", Self.corpus.appendingPathComponent(producer + ".vcf").path, "--book", "home"])
            #expect(imported.exitCode == 0, "\(imported.stderr)")
        }
        let before = try cli.run(db: db, ["export", "--format", "ndjson"]).stdout
        let pushed = try cli.run(db: db, ["sync"])
        #expect(pushed.exitCode == 0 && pushed.stdout.hasSuffix("pushed: 42 new, 0 changed, 0 deleted\n"), "\(pushed.stdout)\(pushed.stderr)")

        let reports = server.requests("REPORT")
        let next = try cli.run(db: db, ["sync"])
        #expect(next.stdout == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n", "\(next.stderr)")
        #expect(server.requests("REPORT") == reports + 1, "the listing alone: no card fetched again")
        #expect(try cli.run(db: db, ["export", "--format", "ndjson"]).stdout == before, "no contact changed here")
        #expect(try cli.run(db: db, ["sync"]).stdout == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
    }

    @Test func aCardDeletedWhileDAViCalForgotTheTokenIsDeletedHere() throws {
        let directory = TemporaryDirectory()
        let server = try DAVServer(.davical, in: directory)
        let cli = server.client(CLIRunner())
        let a = try cli.makeEmptyDatabase("a.sqlite", in: directory), b = try cli.makeEmptyDatabase("b.sqlite", in: directory)
        for db in [a, b] {
            #expect(try cli.run(db: db, ["remote", "add", "home", server.addressBook] + server.credentials).exitCode == 0)
        }
        try cli.importContacts(ids: ["anna", "boris", "vera"], into: a, in: directory)
        #expect(try cli.run(db: a, ["sync"]).stdout.hasSuffix("pushed: 3 new, 0 changed, 0 deleted\n"))
        #expect(try cli.run(db: b, ["sync"]).stdout == "pulled: 3 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")

        try server.forgetSyncTokens()
        #expect(try cli.run(db: a, ["delete", "boris"]).exitCode == 0)
        #expect(try cli.run(db: a, ["sync"]).stdout == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 1 deleted\n")
        let synced = try cli.run(db: b, ["sync"])
        #expect(synced.stdout == "pulled: 0 new, 0 changed, 1 deleted\npushed: 0 new, 0 changed, 0 deleted\n", "\(synced.stderr)")
        let left = try cli.run(db: b, ["query", "--format", "json"]).stdout
        #expect(!left.contains("\"boris\"") && left.contains("\"anna\"") && left.contains("\"vera\""), "\(left)")
        #expect(try cli.run(db: b, ["sync"]).stdout == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
    }
}
