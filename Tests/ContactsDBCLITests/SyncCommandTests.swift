import ContactsDBTestSupport
import Foundation
import GRDB
import Testing

/// `remote`, `sync` and `conflicts` against real servers (docs/sync.md,
/// "Syncing with a CardDAV server"), each run of `contactsdb` a process of
/// its own.
@Suite(.serialized, .enabled(if: DAVPeers.isAvailable, "Radicale, Xandikos and vdirsyncer are not installed: run .ci/run"))
struct SyncCommandTests {
    let cli = CLIRunner(environment: DAVServer.passwordEnvironment)

    // MARK: - Remotes and credentials

    @Test func aRemoteIsFoundFromTheServerWithThePasswordFromEachSourceAndNeverStored() throws {
        let directory = TemporaryDirectory()
        let server = try DAVServer(.radicale, in: directory)
        var cli = cli
        cli.environment = ["HOME": directory.path("home"), "SYNC_PASSWORD": DAVServer.password, "WRONG": "guess"]
        var outputs: [CLIRunner.Result] = []
        func run(_ db: String, _ arguments: [String]) throws -> CLIRunner.Result {
            let result = try cli.run(db: db, arguments)
            outputs.append(result)
            return result
        }
        let db = try cli.makeEmptyDatabase("a.sqlite", in: directory)

        let refused = try run(db, ["remote", "add", "home", server.root, "--username", DAVServer.user, "--password-env", "WRONG"])
        #expect(refused.exitCode == 77)
        #expect(refused.stderr.contains("refused the credentials"))
        let insecure = try run(db, ["remote", "add", "home", "http://192.0.2.7/dav/"])
        #expect(insecure.exitCode == 64)
        #expect(insecure.stderr.contains("Plain http is refused for 192.0.2.7"))
        let inURL = try run(db, ["remote", "add", "home", server.root.replacingOccurrences(of: "http://", with: "http://alice:secret@")])
        #expect(inURL.exitCode == 64)
        #expect(inURL.stderr.contains("not in the URL"))
        #expect(try run(db, ["remote", "list"]).stdout == "", "a refused remote leaves nothing stored")

        // The server's root: its principal's address book home, found.
        let file = directory.write("password", DAVServer.password + "\n")
        let added = try run(db, ["remote", "add", "home", server.root, "--username", DAVServer.user, "--password-file", file])
        #expect(added.exitCode == 0, "\(added.stderr)")
        #expect(try run(db, ["remote", "list"]).stdout == "home\t\(server.addressBook)\tunknown\n")
        let second = try run(db, ["remote", "add", "work", server.addressBook, "--password-env", "SYNC_PASSWORD"])
        #expect(second.exitCode == 64)
        #expect(second.stderr.contains("is bound to the book \"home\" already"), "\(second.stderr)")
        let again = try run(db, ["remote", "add", "home", server.addressBook])
        #expect(again.exitCode == 64 && again.stderr.contains("The book \"home\" syncs with"), "\(again.stderr)")

        #expect(try run(db, ["add", "--first-name", "Ivan", "--last-name", "Petrov"]).exitCode == 0)
        let synced = try run(db, ["sync", "--format", "json"])
        #expect(synced.exitCode == 0, "\(synced.stderr)")
        #expect(synced.stdout == "{\"pulled\":{\"changed\":0,\"deleted\":0,\"new\":0},\"pushed\":{\"changed\":0,\"deleted\":0,\"new\":1},\"remote\":\"home\"}\n")

        // ~/.netrc, read when no option names the password.
        try FileManager.default.createDirectory(atPath: directory.path("home"), withIntermediateDirectories: true)
        _ = directory.write("home/.netrc", "machine 127.0.0.1\n  login \(DAVServer.user)\n  password \"\(DAVServer.password)\"\n")
        let other = try cli.makeEmptyDatabase("b.sqlite", in: directory)
        #expect(try run(other, ["remote", "add", "home", server.addressBook]).exitCode == 0)
        #expect(try run(other, ["sync"]).stdout == "pulled: 1 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")

        // Several address books: the one named.
        let family = try server.makeAddressBook("Family")
        let third = try cli.makeEmptyDatabase("c.sqlite", in: directory)
        let ambiguous = try run(third, ["remote", "add", "home", server.root])
        #expect(ambiguous.exitCode == 64)
        #expect(ambiguous.stderr.contains("several address books (\"Contacts\", \"Family\"); choose one with --addressbook NAME"))
        #expect(try run(third, ["remote", "add", "home", server.root, "--addressbook", "Family"]).exitCode == 0)
        #expect(try run(third, ["remote", "list"]).stdout == "home\t\(family)\tunknown\n")

        let password = Data(DAVServer.password.utf8)
        for path in [db, db + "-wal", other, other + "-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
            #expect(bytes.range(of: password) == nil, "\(path) holds the password")
        }
        #expect(outputs.allSatisfy { !$0.stdout.contains(DAVServer.password) && !$0.stderr.contains(DAVServer.password) })

        server.stop()
        let down = try run(db, ["sync"])
        #expect(down.exitCode == 69)
        #expect(down.stderr.hasPrefix("Error: The remote \(server.addressBook) failed: the connection was refused"))
        #expect(try run(db, ["remote", "remove", "work"]).exitCode == 1)
        #expect(try run(db, ["remote", "remove", "home"]).exitCode == 0)
        #expect(try run(db, ["sync"]).exitCode == 1, "no remote to sync with")
        #expect(try run(db, ["export", "--format", "ndjson"]).lines.count == 1, "removing the remote keeps the contacts")
    }

    // MARK: - Two ways, with a second device

    @Test func changesOnEitherSideReachTheOtherWithUnknownPropertiesKept() throws {
        let directory = TemporaryDirectory()
        let server = try DAVServer(.xandikos, in: directory)
        let db = try cli.makeEmptyDatabase("a.sqlite", in: directory)
        #expect(try cli.run(db: db, ["remote", "add", "home", server.root]).exitCode == 0)
        #expect(try cli.run(db: db, ["remote", "list"]).stdout == "home\t\(server.addressBook)\tunknown\n")
        let anna = try cli.run(db: db, ["add", "--first-name", "Anna", "--last-name", "Petrova", "--phone", "+7 912 345-67-89"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try sync(db) == "pulled: 0 new, 0 changed, 0 deleted\npushed: 1 new, 0 changed, 0 deleted\n")

        let device = try Vdirsyncer(server: server, in: directory)
        try device.sync()
        let annaFile = try #require(device.cards().first { $0.value.contains("UID:\(anna)") })
        #expect(annaFile.value.contains("VERSION:3.0"), "3.0 to a server that does not list 4.0")
        try device.write(annaFile.key, annaFile.value.replacingOccurrences(of: "END:VCARD", with: "TITLE:Engineer\r\nEND:VCARD"))
        try device.write("boris.vcf", """
            BEGIN:VCARD\r
            VERSION:3.0\r
            UID:boris-1\r
            FN:Boris Ivanov\r
            N:Ivanov;Boris;;;\r
            TEL;TYPE=WORK:+7 495 123-45-67\r
            X-CUSTOM-THING;X-FLAVOUR=plum:keep me\r
            item1.X-ABLabel:_$!<Other>!$_\r
            END:VCARD\r

            """)
        try device.sync()

        #expect(try sync(db) == "pulled: 1 new, 1 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
        let pulled = try contacts(db)
        #expect(pulled[anna]?["jobTitle"] as? String == "Engineer")
        #expect(pulled["boris-1"]?["extra"] as? [String] == ["X-CUSTOM-THING;X-FLAVOUR=plum:keep me", "item1.X-ABLabel:_$!<Other>!$_"])

        #expect(try cli.run(db: db, ["update", "boris-1", "--company", "Acme"]).exitCode == 0)
        #expect(try cli.run(db: db, ["delete", anna]).exitCode == 0)
        #expect(try sync(db) == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 1 changed, 1 deleted\n")
        try device.sync()
        let cards = try device.cards()
        #expect(cards.count == 1)
        let boris = try #require(cards["boris.vcf"])
        #expect(boris.contains("ORG:Acme"))
        #expect(boris.contains("X-CUSTOM-THING;X-FLAVOUR=plum:keep me"))
        #expect(boris.contains("item1.X-ABLabel:_$!<Other>!$_"))

        // Nothing changed: nothing written to the server, also when the
        // server no longer knows the stored sync-token.
        let writes = server.writes
        #expect(try sync(db) == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
        try DatabaseQueue(path: db).write { db in try db.execute(sql: "UPDATE remote SET syncToken = 'forgotten'") }
        #expect(try sync(db) == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
        #expect(server.writes == writes)

        // (vdirsyncer refuses to sync a folder it finds emptied.)
        try device.write("dora.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:dora-1\r\nFN:Dora\r\nN:;Dora;;;\r\nEND:VCARD\r\n")
        try device.remove("boris.vcf")
        try device.sync()
        #expect(try cli.run(db: db, ["sync", "--dry-run"]).stdout == "pulled: 1 new, 0 changed, 1 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
        #expect(try contacts(db).keys.sorted() == ["boris-1"], "a dry run changes nothing")
        #expect(try sync(db) == "pulled: 1 new, 0 changed, 1 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
        #expect(try contacts(db).keys.sorted() == ["dora-1"])

        // A card the server moves to another href, edited here meanwhile:
        // the same contact, its edit pushed to the new href, no conflict.
        #expect(try cli.run(db: db, ["update", "dora-1", "--note", "moved"]).exitCode == 0)
        let doraHref = try #require(try DatabaseQueue(path: db).read { db in
            try String.fetchOne(db, sql: "SELECT href FROM syncedCard WHERE contactId = 'dora-1'")
        })
        try server.move(String(server.root.dropLast()) + doraHref, to: server.addressBook + "renamed.vcf")
        #expect(try sync(db) == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 1 changed, 0 deleted\n")
        #expect(try contacts(db).keys.sorted() == ["dora-1"])
        #expect(try cli.run(db: db, ["conflicts"]).stdout == "No conflicts.\n")
        try device.sync()
        #expect(try device.cards().values.filter { $0.contains("UID:dora-1") }.map { $0.contains("NOTE:moved") } == [true])
    }

    // MARK: - Conflicts

    /// On Cyrus and DAViCal too, which rewrite each card they take (Cyrus
    /// answers the PUT with the rewritten card's ETag, DAViCal with none).
    @Test(arguments: DAVServer.installed([.xandikos, .cyrus, .davical]))
    func bothSidesChangingOneContactMergeAndKeepWhatLost(kind: DAVServer.Kind) throws {
        let directory = TemporaryDirectory()
        let server = try DAVServer(kind, in: directory)
        let a = try cli.makeEmptyDatabase("a.sqlite", in: directory), b = try cli.makeEmptyDatabase("b.sqlite", in: directory)
        for db in [a, b] { #expect(try cli.run(db: db, ["remote", "add", "home", server.addressBook] + server.credentials).exitCode == 0) }
        let id = try cli.run(db: a, ["add", "--first-name", "Anna", "--last-name", "Petrova"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try sync(a)
        #expect(try sync(b) == "pulled: 1 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")

        // Different properties: both kept, no conflict.
        #expect(try cli.run(db: a, ["update", id, "--company", "Sprocket"]).exitCode == 0)
        #expect(try cli.run(db: b, ["update", id, "--email", "anna@posteo.de"]).exitCode == 0)
        _ = try sync(a)
        #expect(try sync(b) == "pulled: 0 new, 1 changed, 0 deleted\npushed: 0 new, 1 changed, 0 deleted\n")
        _ = try sync(a)
        for db in [a, b] {
            let contact = try #require(try contacts(db)[id])
            #expect(contact["company"] as? String == "Sprocket")
            #expect((contact["emails"] as? [[String: Any]])?.first?["value"] as? String == "anna@posteo.de")
        }
        #expect(try cli.run(db: b, ["conflicts"]).stdout == "No conflicts.\n")

        // One property: the server's value wins, the local one is kept.
        #expect(try cli.run(db: a, ["update", id, "--first-name", "Anya"]).exitCode == 0)
        #expect(try cli.run(db: b, ["update", id, "--first-name", "Annushka"]).exitCode == 0)
        _ = try sync(a)
        let conflicted = try cli.run(db: b, ["sync"])
        #expect(conflicted.stderr.contains("1 conflict kept the losing version"))
        #expect(try contacts(b)[id]?["firstName"] as? String == "Anya")
        let listed = try cli.run(db: b, ["conflicts", "--format", "json"])
        let conflicts = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(conflicts.count == 1)
        #expect(conflicts.first?["contactId"] as? String == id)
        #expect(conflicts.first?["kept"] as? String == "server")
        #expect(conflicts.first?["properties"] as? [String] == ["firstName"])
        let conflictID = try #require(conflicts.first?["id"] as? Int)
        let shown = try cli.run(db: b, ["conflicts", "show", String(conflictID)])
        let losing = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])["losing"]
        #expect((losing as? [String: Any])?["firstName"] as? String == "Annushka")
        #expect(try cli.run(db: b, ["conflicts", "dismiss", String(conflictID)]).exitCode == 0)
        #expect(try cli.run(db: b, ["conflicts", "dismiss", String(conflictID)]).exitCode == 1)
        #expect(try cli.run(db: b, ["conflicts"]).stdout == "No conflicts.\n")

        // --prefer local: the local value wins and reaches the server.
        #expect(try cli.run(db: a, ["update", id, "--last-name", "Ivanova"]).exitCode == 0)
        #expect(try cli.run(db: b, ["update", id, "--last-name", "Smirnova"]).exitCode == 0)
        _ = try sync(a)
        #expect(try cli.run(db: b, ["sync", "--prefer", "local"]).stdout == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 1 changed, 0 deleted\n")
        _ = try sync(a)
        #expect(try contacts(a)[id]?["lastName"] as? String == "Smirnova")
        let kept = try cli.run(db: b, ["conflicts", "--format", "json"]).stdout
        #expect(kept.contains("\"kept\": \"local\"") && kept.contains("\"lastName\": \"Ivanova\""))

        // An edit beats a delete, whichever side deleted.
        #expect(try cli.run(db: a, ["delete", id]).exitCode == 0)
        #expect(try cli.run(db: b, ["update", id, "--note", "still here"]).exitCode == 0)
        #expect(try sync(a) == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 1 deleted\n")
        #expect(try sync(b) == "pulled: 0 new, 0 changed, 0 deleted\npushed: 1 new, 0 changed, 0 deleted\n")
        #expect(try sync(a) == "pulled: 1 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
        #expect(try contacts(a)[id]?["note"] as? String == "still here")

        #expect(try cli.run(db: b, ["delete", id]).exitCode == 0)
        #expect(try cli.run(db: a, ["update", id, "--note", "edited again"]).exitCode == 0)
        _ = try sync(a)
        #expect(try sync(b) == "pulled: 0 new, 1 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
        #expect(try contacts(b)[id]?["note"] as? String == "edited again")
        #expect(try sync(b) == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
    }

    // MARK: - Non public

    private func sync(_ db: String) throws -> String {
        let result = try cli.run(db: db, ["sync"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result.stdout
    }

    /// Every contact of the database, as JSON objects by id.
    private func contacts(_ db: String) throws -> [String: [String: Any]] {
        let output = try cli.run(db: db, ["export", "--format", "json"]).stdout
        let array = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: array.map { ($0["id"] as? String ?? "", $0) })
    }

    /// Issue 56, item 12, on the real servers: a contact moved, with an
    /// edit, into an address book that holds another card of its UID (the
    /// person was in both accounts). Radicale refuses the card (409,
    /// `no-uid-conflict`): the contact and its edit stay in the new book
    /// and each sync says why its card is not there. Xandikos 0.4 takes a
    /// second card of one UID: the card is pushed. Either way the old
    /// book's card goes.
    @Test(arguments: [DAVServer.Kind.radicale, .xandikos])
    func aMoveIntoABookHoldingItsUIDKeepsTheContactAndSaysWhy(kind: DAVServer.Kind) throws {
        let directory = TemporaryDirectory()
        let server = try DAVServer(kind, in: directory)
        let home = try server.makeAddressBook("home")
        var cli = cli
        cli.environment = ["SYNC_PASSWORD": DAVServer.password]
        let db = try cli.makeEmptyDatabase("a.sqlite", in: directory)
        for (name, url) in [("work", server.addressBook), ("home", home)] {
            let added = try cli.run(db: db, ["remote", "add", name, url, "--username", DAVServer.user, "--password-env", "SYNC_PASSWORD"])
            #expect(added.exitCode == 0, "\(added.stderr)")
        }
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:a\r\nFN:Anna Petrova\r\nN:Petrova;Anna;;;\r\nEND:VCARD\r\n"
        for book in ["work", "home"] {
            #expect(try cli.run(db: db, ["import", directory.write("\(book).vcf", card), "--book", book]).exitCode == 0)
        }
        #expect(try cli.run(db: db, ["sync"]).exitCode == 0)
        let ids = { (book: String) -> Set<String> in
            let json = try cli.run(db: db, ["query", "--book", book, "--format", "json"]).stdout
            return Set((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        }
        let homeBefore = try ids("home")
        let moved = try #require(try ids("work").first)
        #expect(try cli.run(db: db, ["update", moved, "--note", "edited at work"]).exitCode == 0)
        #expect(try cli.run(db: db, ["move", moved, "--to", "home"]).exitCode == 0)
        #expect(try cli.run(db: db, ["sync", "work"]).exitCode == 0)
        for round in 0..<2 {
            let sync = try cli.run(db: db, ["sync", "home"])
            if kind == .radicale {
                #expect(sync.stderr.contains("Not synced: \(moved): ") && sync.stderr.contains("another card of its UID"),
                        "\(sync.exitCode) \(sync.stdout)\(sync.stderr)")
            } else {
                #expect(sync.stderr.isEmpty && sync.stdout.hasSuffix("pushed: \(round == 0 ? 1 : 0) new, 0 changed, 0 deleted\n"),
                        "\(sync.stdout)\(sync.stderr)")
            }
            #expect(try cli.run(db: db, ["show", moved]).stdout.contains("edited at work"))
            #expect(try ids("home") == homeBefore.union([moved]))
        }
        #expect(try ids("work").isEmpty)
    }

}
