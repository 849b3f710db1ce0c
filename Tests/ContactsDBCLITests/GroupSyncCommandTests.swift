import ContactsDBTestSupport
import Foundation
@testable import ContactsDBSynthetic
import Testing

/// Groups through `sync` against real servers, with vdirsyncer as another
/// device writing cards the way macOS writes group cards and the way
/// Android writes CATEGORIES (docs/sync.md, "Syncing with a CardDAV
/// server").
@Suite(.serialized, .enabled(if: DAVPeers.isAvailable, "Radicale, Xandikos and vdirsyncer are not installed: run .ci/run"))
struct GroupSyncCommandTests {
    let cli = CLIRunner(environment: ["SYNC_PASSWORD": DAVServer.password])

    static func person(_ uid: String, _ first: String, _ last: String, categories: String? = nil) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "N:\(last);\(first);;;", "FN:\(first) \(last)"]
            + (categories.map { ["CATEGORIES:\($0)"] } ?? []) + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    /// The way macOS Contacts writes a group.
    static func appleGroup(_ uid: String, _ name: String, members: [String]) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Apple Inc.//macOS 14.5//EN", "N:\(name);;;;", "FN:\(name)",
          "X-ADDRESSBOOKSERVER-KIND:group"] + members.map { "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\($0)" }
            + ["REV:2026-11-20T10:00:00Z", "UID:\(uid)", "END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    /// Xandikos holding Anna, Boris and Vera and `groups` (cards by file
    /// name), written there by vdirsyncer as macOS would.
    static func appleBook(in directory: TemporaryDirectory, _ groups: [String: String]) throws -> (DAVServer, Vdirsyncer) {
        let server = try DAVServer(.xandikos, in: directory)
        let mac = try Vdirsyncer(server: server, in: directory)
        try mac.write("anna.vcf", Self.person("anna-1", "Anna", "Petrova"))
        try mac.write("boris.vcf", Self.person("boris-1", "Boris", "Ivanov"))
        try mac.write("vera.vcf", Self.person("vera-1", "Vera", "Sokolova"))
        for (name, card) in groups { try mac.write(name, card) }
        try mac.sync()
        return (server, mac)
    }

    /// A card's lines as written (folded lines stay apart).
    static func lines(_ card: String) -> [String] {
        card.split(whereSeparator: \.isNewline).map(String.init)
    }

    /// Each group's name, uid and member ids.
    func groups(_ db: String) throws -> [String] {
        let list = try cli.run(db: db, ["group", "list", "--format", "json"]).stdout
        let groups = try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]] ?? []
        return try groups.map { group in
            let name = group["name"] as? String ?? ""
            let members = try cli.run(db: db, ["query", "--group", name, "--format", "ndjson"]).lines.compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
            }
            return "\(name) \(group["uid"] as? String ?? "") \(members.sorted().joined(separator: ","))"
        }.sorted()
    }

    func sync(_ db: String) throws -> String {
        let result = try cli.run(db: db, ["sync"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result.stdout
    }

    static let quiet = "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n"

    @Test func groupCardsOnXandikosTravelBothWays() throws {
        let directory = TemporaryDirectory()
        let (server, mac) = try Self.appleBook(in: directory, ["family.vcf": Self.appleGroup("family-1", "Family", members: ["anna-1", "boris-1"])])

        let a = try cli.makeEmptyDatabase("a.sqlite", in: directory), b = try cli.makeEmptyDatabase("b.sqlite", in: directory)
        for db in [a, b] {
            #expect(try cli.run(db: db, ["remote", "add", "home", server.root]).exitCode == 0)
            #expect(try sync(db) == "pulled: 4 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
            #expect(try cli.run(db: db, ["remote", "list"]).stdout.hasSuffix("\tcards\n"))
            #expect(try cli.run(db: db, ["query", "--count"]).stdout == "3\n", "the group card is no contact")
        }
        #expect(try groups(a) == ["Family family-1 anna-1,boris-1"])

        // Each side changes the members, one adds a group; they merge as a set.
        #expect(try cli.run(db: a, ["group", "add", "Family", "vera-1"]).exitCode == 0)
        #expect(try cli.run(db: b, ["group", "remove", "Family", "anna-1"]).exitCode == 0)
        #expect(try cli.run(db: b, ["group", "create", "Work"]).exitCode == 0)
        #expect(try cli.run(db: b, ["group", "add", "Work", "anna-1"]).exitCode == 0)
        _ = try sync(a); _ = try sync(b); _ = try sync(a)
        #expect(try groups(a) == groups(b))
        #expect(try groups(a).first == "Family family-1 boris-1,vera-1")
        #expect(try groups(a).count == 2)
        for db in [a, b] { #expect(try sync(db) == Self.quiet) }

        // The other device sees the cards, in Apple's 3.0 form, and edits one.
        try mac.sync()
        let cards = try mac.cards()
        let family = try #require(cards["family.vcf"])
        #expect(family.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:vera-1") && !family.contains("urn:uuid:anna-1"))
        #expect(cards.values.filter { $0.contains("FN:Work") && $0.contains("X-ADDRESSBOOKSERVER-KIND:group") }.count == 1)
        #expect(!cards.values.contains { $0.contains("CATEGORIES") }, "no CATEGORIES beside the group cards")
        try mac.write("family.vcf", family.replacingOccurrences(
            of: "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:vera-1", with: "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:vera-1\r\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:anna-1"))
        try mac.sync()
        _ = try sync(a); _ = try sync(b)
        #expect(try groups(a) == groups(b) && groups(a).first == "Family family-1 anna-1,boris-1,vera-1")
        for db in [a, b] { #expect(try sync(db) == Self.quiet) }
    }

    @Test func categoriesOnRadicaleTravelBothWays() throws {
        let directory = TemporaryDirectory()
        let server = try DAVServer(.radicale, in: directory)
        let android = try Vdirsyncer(server: server, in: directory)
        try android.write("anna.vcf", Self.person("anna-1", "Anna", "Petrova", categories: "Family,Work"))
        try android.write("boris.vcf", Self.person("boris-1", "Boris", "Ivanov", categories: "Family"))
        try android.write("vera.vcf", Self.person("vera-1", "Vera", "Sokolova"))
        try android.sync()

        let a = try cli.makeEmptyDatabase("a.sqlite", in: directory), b = try cli.makeEmptyDatabase("b.sqlite", in: directory)
        for db in [a, b] {
            #expect(try cli.run(db: db, ["remote", "add", "home", server.root, "--username", DAVServer.user,
                                         "--password-env", "SYNC_PASSWORD"]).exitCode == 0)
            _ = try sync(db)
            #expect(try cli.run(db: db, ["remote", "list"]).stdout.hasSuffix("\tcategories\n"))
        }
        let uids = { (db: String) in try self.groups(db).map { $0.split(separator: " ").map(String.init) } }
        #expect(try uids(a).map { [$0[0], $0[2]] } == [["Family", "anna-1,boris-1"], ["Work", "anna-1"]])

        #expect(try cli.run(db: a, ["group", "add", "Work", "vera-1"]).exitCode == 0)
        #expect(try cli.run(db: b, ["group", "remove", "Family", "boris-1"]).exitCode == 0)
        _ = try sync(a); _ = try sync(b); _ = try sync(a)
        let members = { (db: String) in try uids(db).map { [$0[0], $0[2]] } }
        #expect(try members(a) == members(b))
        #expect(try members(a) == [["Family", "anna-1"], ["Work", "anna-1,vera-1"]])
        for db in [a, b] { #expect(try sync(db) == Self.quiet) }
        try android.sync()
        #expect(try android.cards()["vera.vcf"]?.contains("CATEGORIES:Work") == true)
        #expect(try android.cards().count == 3, "no group card in the categories convention")
    }

    /// `sync` killed at random moments while it pushes membership changes
    /// of group cards: in the end one card per group, and every member.
    @Test func aSyncKilledDuringGroupPushesLeavesNoDuplicateAndLosesNoMember() throws {
        let directory = TemporaryDirectory()
        let server = try DAVServer(.xandikos, in: directory)
        let a = try cli.makeEmptyDatabase("a.sqlite", in: directory)
        let people = directory.write("people.json", try cli.run(["generate", "--contacts", "300"]).stdout)
        // The new book the remote makes is the default, where the import goes.
        #expect(try cli.run(db: a, ["remote", "add", "home", server.root, "--groups", "cards"]).exitCode == 0)
        #expect(try cli.run(db: a, ["import", people]).exitCode == 0)
        let before = try groups(a)
        #expect(before.count == 5, "the generated contacts are in five groups")
        _ = try sync(a)
        var random = SplitMix64(seed: 7)
        var killed = 0, edited: [String] = []
        for trial in 0..<6 {
            for group in ["Family", "Work", "Friends"] {
                let id = "c\(1 + random.below(300))"
                let change = trial.isMultiple(of: 2) ? "add" : "remove"
                #expect(try cli.run(db: a, ["group", change, group, id]).exitCode == 0)
            }
            #expect(try cli.run(db: a, ["group", "create", "Trial \(trial)"]).exitCode == 0)
            edited = try groups(a)
            if !(try ReliabilityTests.run(["--db", a, "sync"], killedAfter: 20_000 + random.below(400_000))) { killed += 1 }
        }
        _ = try sync(a)
        #expect(try sync(a) == Self.quiet)
        #expect(try groups(a) == edited, "no sync, killed or not, took back a change made here")
        let b = try cli.makeEmptyDatabase("b.sqlite", in: directory)
        #expect(try cli.run(db: b, ["remote", "add", "home", server.root]).exitCode == 0)
        _ = try sync(b)
        #expect(try groups(b) == groups(a))
        let mac = try Vdirsyncer(server: server, in: directory)
        try mac.sync()
        let groupCards = try mac.cards().values.filter { $0.contains("X-ADDRESSBOOKSERVER-KIND:group") || $0.contains("KIND:group") }
        #expect(groupCards.count == 11, "one card per group")
        print("killed group sync: \(killed) of 6 syncs killed")
    }

    /// Issue 44, item 2: two group cards of one name with UIDs of their own
    /// (another client made the second) stay two groups; neither card is
    /// deleted nor renamed on the server, and the one taken in second is
    /// told apart here as `Work (2)`.
    @Test func twoGroupCardsOfOneNameStayTwoGroups() throws {
        let directory = TemporaryDirectory()
        let (server, mac) = try Self.appleBook(in: directory, ["work-a.vcf": Self.appleGroup("work-a", "Work", members: ["anna-1"]),
                                                               "work-b.vcf": Self.appleGroup("work-b", "Work", members: ["boris-1"])])

        let a = try cli.makeEmptyDatabase("a.sqlite", in: directory)
        #expect(try cli.run(db: a, ["remote", "add", "home", server.root]).exitCode == 0)
        #expect(try sync(a) == "pulled: 5 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
        // Whichever came second is told apart.
        let found = try groups(a)
        #expect(found == ["Work (2) work-b boris-1", "Work work-a anna-1"] || found == ["Work (2) work-a anna-1", "Work work-b boris-1"],
                "\(found)")
        let (apart, file, member) = found.first == "Work (2) work-b boris-1" ? ("work-b", "work-b.vcf", "boris-1") : ("work-a", "work-a.vcf", "anna-1")
        let other = apart == "work-a" ? "work-b.vcf" : "work-a.vcf"
        #expect(try sync(a) == Self.quiet)

        // The one told apart is named so here; its card keeps its name.
        #expect(try cli.run(db: a, ["group", "add", "Work (2)", "vera-1"]).exitCode == 0)
        #expect(try sync(a) == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 1 changed, 0 deleted\n")
        try mac.sync()
        let cards = try mac.cards()
        let second = try #require(cards[file])
        #expect(Self.lines(second).contains("FN:Work") && second.contains("urn:uuid:vera-1") && second.contains("urn:uuid:\(member)"), "\(second)")
        let first = try #require(cards[other])
        #expect(Self.lines(first).contains("FN:Work") && !first.contains("vera-1") && !first.contains("urn:uuid:\(member)"), "\(first)")

        // Renamed here, it takes the new name there.
        #expect(try cli.run(db: a, ["group", "rename", "Work (2)", "Projects"]).exitCode == 0)
        _ = try sync(a)
        try mac.sync()
        #expect(Self.lines(try mac.cards()[file] ?? "").contains("FN:Projects"))
        #expect(try groups(a).first == "Projects \(apart) \([member, "vera-1"].sorted().joined(separator: ","))")
        #expect(try sync(a) == Self.quiet)
    }

    /// Issue 44, item 7: a group card whose UID is a contact's: two things,
    /// two cards. The group's reaches the server beside the contact's, and
    /// no sync says the server changed it.
    @Test func aGroupWithAContactsUIDReachesTheServer() throws {
        let directory = TemporaryDirectory()
        let server = try DAVServer(.xandikos, in: directory)
        let a = try cli.makeEmptyDatabase("a.sqlite", in: directory)
        #expect(try cli.run(db: a, ["remote", "add", "home", server.root, "--groups", "cards"]).exitCode == 0)
        let file = directory.write("same.vcf", Self.person("same", "Anna", "Petrova") + Self.person("boris-1", "Boris", "Ivanov")
                                   + Self.appleGroup("same", "Team", members: ["boris-1"]))
        #expect(try cli.run(db: a, ["import", file]).exitCode == 0)
        for _ in 0..<2 {
            let synced = try cli.run(db: a, ["sync"])
            #expect(synced.exitCode == 0 && synced.stderr.isEmpty, "\(synced.stderr)")
        }
        #expect(try sync(a) == Self.quiet)
        // Another device finds both: vdirsyncer cannot be it, as it
        // refuses two cards of one UID.
        let b = try cli.makeEmptyDatabase("b.sqlite", in: directory)
        #expect(try cli.run(db: b, ["remote", "add", "home", server.root]).exitCode == 0)
        #expect(try sync(b) == "pulled: 3 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
        #expect(try groups(b) == ["Team same boris-1"])
        #expect(try cli.run(db: b, ["show", "same"]).stdout.contains("Anna Petrova"))
    }

    /// Issue 56, item 20: Radicale takes no second card of one UID (409
    /// `no-uid-conflict`). A group whose UID is a contact's takes a UID of
    /// its own, said once, and its card reaches the server in that sync;
    /// later syncs are quiet, and another device finds both.
    @Test func aGroupWithAContactsUIDReachesRadicaleUnderAUIDOfItsOwn() throws {
        let directory = TemporaryDirectory()
        let server = try DAVServer(.radicale, in: directory)
        let a = try cli.makeEmptyDatabase("a.sqlite", in: directory), b = try cli.makeEmptyDatabase("b.sqlite", in: directory)
        for db in [a, b] {
            #expect(try cli.run(db: db, ["remote", "add", "home", server.root, "--username", DAVServer.user,
                                         "--password-env", "SYNC_PASSWORD", "--groups", "cards"]).exitCode == 0)
        }
        let file = directory.write("same.vcf", Self.person("same", "Anna", "Petrova") + Self.person("boris-1", "Boris", "Ivanov")
                                   + Self.appleGroup("same", "Team", members: ["boris-1"]))
        #expect(try cli.run(db: a, ["import", file]).exitCode == 0)
        let first = try cli.run(db: a, ["sync"])
        #expect(first.exitCode == 0 && first.stdout.hasSuffix("pushed: 3 new, 0 changed, 0 deleted\n"), "\(first.stdout)")
        let said = first.stderr.split(separator: "\n")
        #expect(said.count == 1 && said.first?.hasPrefix("group Team: the server holds another card of its UID same") == true,
                "\(first.stderr)")
        let second = try cli.run(db: a, ["sync"])
        #expect(second.exitCode == 0 && second.stderr.isEmpty && second.stdout == Self.quiet, "\(second.stdout)\(second.stderr)")
        #expect(try sync(b) == "pulled: 3 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
        let team = try groups(b).map { $0.split(separator: " ").map(String.init) }
        #expect(team.count == 1 && team.first?.first == "Team" && team.first?.last == "boris-1" && team.first?[1] != "same", "\(team)")
        #expect(try groups(a) == groups(b))
    }

    /// Issue 44, item 8: `remote add --groups` naming the convention the
    /// address book does not hold. The first sync follows what it holds and
    /// says so: group cards there are kept up to date, CATEGORIES there
    /// are groups here.
    @Test func aConventionNamedAgainstWhatTheServerHoldsFollowsTheServer() throws {
        let directory = TemporaryDirectory()
        let (server, mac) = try Self.appleBook(in: directory, ["family.vcf": Self.appleGroup("family-1", "Family", members: ["anna-1", "boris-1"])])
        let a = try cli.makeEmptyDatabase("a.sqlite", in: directory)
        #expect(try cli.run(db: a, ["remote", "add", "home", server.root, "--groups", "categories"]).exitCode == 0)
        let first = try cli.run(db: a, ["sync"])
        #expect(first.exitCode == 0)
        #expect(first.stderr == "Groups sync as cards, not categories as `remote add --groups` named: the address book holds group cards.\n",
                "\(first.stderr)")
        #expect(try cli.run(db: a, ["remote", "list"]).stdout.hasSuffix("\tcards\n"))
        #expect(try cli.run(db: a, ["group", "remove", "Family", "anna-1"]).exitCode == 0)
        let second = try cli.run(db: a, ["sync"])
        #expect(second.exitCode == 0 && second.stderr.isEmpty, "said once: \(second.stderr)")
        try mac.sync()
        let family = try #require(try mac.cards()["family.vcf"])
        #expect(!family.contains("urn:uuid:anna-1") && family.contains("urn:uuid:boris-1"), "\(family)")

        let elsewhere = TemporaryDirectory()
        let radicale = try DAVServer(.radicale, in: elsewhere)
        let android = try Vdirsyncer(server: radicale, in: elsewhere)
        try android.write("anna.vcf", Self.person("anna-1", "Anna", "Petrova", categories: "Family,Work"))
        try android.write("boris.vcf", Self.person("boris-1", "Boris", "Ivanov", categories: "Family"))
        try android.sync()
        let b = try cli.makeEmptyDatabase("b.sqlite", in: elsewhere)
        #expect(try cli.run(db: b, ["remote", "add", "home", radicale.root, "--username", DAVServer.user,
                                    "--password-env", "SYNC_PASSWORD", "--groups", "cards"]).exitCode == 0)
        let pulled = try cli.run(db: b, ["sync"])
        #expect(pulled.exitCode == 0)
        #expect(pulled.stderr == "Groups sync as categories, not cards as `remote add --groups` named: "
                + "the address book holds CATEGORIES on its cards and no group card.\n", "\(pulled.stderr)")
        #expect(try cli.run(db: b, ["remote", "list"]).stdout.hasSuffix("\tcategories\n"))
        #expect(try groups(b).map { $0.split(separator: " ").map(String.init) }.map { [$0[0], $0[2]] }
                == [["Family", "anna-1,boris-1"], ["Work", "anna-1"]])
        #expect(try sync(b) == Self.quiet)
    }
}
