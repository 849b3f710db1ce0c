import CVips
import ContactsDB
import ContactsDBTestSupport
import Foundation
import GRDB
import Testing

/// What each real server gives back of what a sync pushed there
/// (docs/sync.md, "The servers the tests run"): a fresh database pulls it
/// whole.
@Suite(.serialized, .enabled(if: DAVPeers.isAvailable, "Radicale, Xandikos and Cyrus are not installed: run .ci/run"))
struct ServerFidelityTests {
    let cli = CLIRunner(environment: DAVServer.passwordEnvironment)

    /// Photos pushed as 4.0's `data:` URI (to an address book that lists
    /// 4.0) and as 3.0's `ENCODING=b` (to one that lists 3.0 only, here
    /// told so) come back byte for byte into a fresh database, and stay
    /// whole through an edit made there and pulled back. Cyrus answers 3.0
    /// unless asked for 4.0, and its 3.0 drops a `data:` photo.
    @Test(arguments: DAVServer.installed([.radicale, .xandikos, .cyrus]))
    func photosComeBackWholeIntoAFreshDatabase(kind: DAVServer.Kind) throws {
        let directory = TemporaryDirectory()
        let server = try DAVServer(kind, in: directory)
        let jpeg = try PhotoImage.sample(width: 1600, height: 1200, format: CVIPS_JPEG)
        let png = try PhotoImage.sample(width: 320, height: 240, format: CVIPS_PNG)
        let pusher = try added("pusher.sqlite", to: server, in: directory)
        let pusher3 = try added("pusher3.sqlite", to: server, in: directory)
        try DatabaseQueue(path: pusher3).write { db in try db.execute(sql: "UPDATE remote SET vcardVersion = '3.0'") }
        var ids: [String] = []
        for (db, name, photo) in [(pusher, "Anna", jpeg), (pusher3, "Boris", png)] {
            let id = try cli.run(db: db, ["add", "--first-name", name, "--book", "home"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let file = directory.path("\(name).photo")
            try photo.write(to: URL(fileURLWithPath: file))
            #expect(try cli.run(db: db, ["photo", "set", id, file]).exitCode == 0)
            #expect(try sync(db).hasSuffix("pushed: 1 new, 0 changed, 0 deleted\n"))
            ids.append(id)
        }

        let fresh = try added("fresh.sqlite", to: server, in: directory)
        #expect(try sync(fresh) == "pulled: 2 new, 0 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
        #expect(try photo(fresh, ids[0]) == jpeg, "the 4.0 photo, \(jpeg.count) bytes")
        #expect(try photo(fresh, ids[1]) == png, "the 3.0 photo, \(png.count) bytes")

        #expect(try cli.run(db: fresh, ["update", ids[0], "--note", "met in Tver"]).exitCode == 0)
        #expect(try sync(fresh) == "pulled: 0 new, 0 changed, 0 deleted\npushed: 0 new, 1 changed, 0 deleted\n")
        #expect(try sync(pusher) == "pulled: 1 new, 1 changed, 0 deleted\npushed: 0 new, 0 changed, 0 deleted\n")
        #expect(try cli.run(db: pusher, ["show", ids[0]]).stdout.contains("met in Tver"))
        #expect(try photo(pusher, ids[0]) == jpeg)
        #expect(try photo(pusher, ids[1]) == png)
    }

    // MARK: - Non public

    /// A new database whose book `home` syncs with the server's address book.
    private func added(_ name: String, to server: DAVServer, in directory: TemporaryDirectory) throws -> String {
        let db = try cli.makeEmptyDatabase(name, in: directory)
        let added = try cli.run(db: db, ["remote", "add", "home", server.addressBook] + server.credentials)
        #expect(added.exitCode == 0, "\(added.stderr)")
        return db
    }

    private func sync(_ db: String) throws -> String {
        let result = try cli.run(db: db, ["sync"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result.stdout
    }

    private func photo(_ db: String, _ id: String) throws -> Data {
        try cli.run(db: db, ["photo", "get", id]).stdoutData
    }
}
