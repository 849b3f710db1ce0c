import ContactsDBTestSupport
import Foundation
import Testing
@testable import ContactsDBCLI
import ContactsDBBench

/// `changes`, `compact`, `--if-revision` and `watch`, each across real
/// processes: the writers, the readers and the watcher are separate runs
/// of the binary.
@Suite struct ChangesCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    func token(_ db: String, since: String? = nil) throws -> (changes: [[String: Any]], token: String) {
        try cli.changes(db, since: since)
    }

    func revision(_ db: String, _ id: String) throws -> Int {
        let json = try cli.run(db: db, ["show", id, "--format", "ndjson"]).stdout
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return object?["revision"] as? Int ?? -1
    }

    @Test func changesListsEachChangedContactOnceWithItsKind() throws {
        let db = try cli.makeDatabase(in: directory)
        let start = try token(db)
        #expect(start.changes.count == 10 && start.changes.allSatisfy { $0["kind"] as? String == "added" })

        let added = try cli.run(db: db, ["add", "--first-name", "New"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try cli.run(db: db, ["update", "seed-acme", "--age", "30"]).exitCode == 0)
        #expect(try cli.run(db: db, ["update", "seed-acme", "--age", "31"]).exitCode == 0)
        #expect(try cli.run(db: db, ["favorite", "seed-john-smith"]).exitCode == 0)
        #expect(try cli.run(db: db, ["group", "create", "Team"]).exitCode == 0)
        #expect(try cli.run(db: db, ["group", "add", "Team", "seed-anna-muller"]).exitCode == 0)
        #expect(try cli.run(db: db, ["delete", "seed-zoe-oconnor"]).exitCode == 0)
        let shortLived = try cli.run(db: db, ["add", "--first-name", "Gone"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try cli.run(db: db, ["delete", shortLived]).exitCode == 0)

        let next = try token(db, since: start.token)
        let kinds = Dictionary(uniqueKeysWithValues: next.changes.map { ($0["id"] as? String ?? "", $0["kind"] as? String ?? "") })
        #expect(kinds == [added: "added", "seed-acme": "updated", "seed-john-smith": "updated",
                          "seed-anna-muller": "updated", "seed-zoe-oconnor": "deleted"])
        let revisions = next.changes.map { $0["revision"] as? Int ?? 0 }
        #expect(revisions == revisions.sorted() && Set(revisions).count == revisions.count)
        #expect(try token(db, since: next.token).changes.isEmpty)

        let json = try cli.run(db: db, ["changes", "--since", start.token, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["token"] as? String == next.token)
        #expect((object?["changes"] as? [Any])?.count == 5)
    }

    @Test func aTokenOfAnotherDatabaseOrBeforeCompactedHistoryExits65() throws {
        let db = try cli.makeDatabase(in: directory)
        let other = try cli.makeEmptyDatabase("other.sqlite", in: directory)
        let start = try token(db)
        for foreign in [try token(other).token, "not a token"] {
            let result = try cli.run(db: db, ["changes", "--since", foreign])
            #expect(result.exitCode == 65 && result.stderr.contains("sync again from scratch"), "\(result.stderr)")
        }

        #expect(try cli.run(db: db, ["delete", "seed-acme"]).exitCode == 0)
        let afterDelete = try token(db)
        let kept = try cli.run(db: db, ["compact", "--changes-before", "2000-01-01"])
        #expect(kept.stdout == "Forgot 0 deleted contacts.\n")
        #expect(try token(db, since: start.token).changes.count == 1)

        let compacted = try cli.run(db: db, ["compact", "--changes-before", "2100-01-01"])
        #expect(compacted.stdout == "Forgot 1 deleted contact.\n", "\(compacted.stderr)")
        let expired = try cli.run(db: db, ["changes", "--since", start.token])
        #expect(expired.exitCode == 65 && expired.stderr.contains("sync again from scratch"), "\(expired.stderr)")
        #expect(try token(db, since: afterDelete.token).changes.isEmpty)
        #expect(try cli.run(db: db, ["compact", "--changes-before", "soon"]).exitCode == 64)
    }

    /// Four processes update one contact at once, each with the revision
    /// all of them read: exactly one wins, and the others are told the
    /// revision that won.
    @Test func concurrentUpdatersOfOneRevisionHaveOneWinner() throws {
        let db = try cli.makeDatabase(in: directory)
        let cli = self.cli
        for round in 0..<4 {
            let before = try revision(db, "seed-ivan-petrov")
            let results = Results()
            DispatchQueue.concurrentPerform(iterations: 4) { writer in
                let result = try? cli.run(db: db, ["update", "seed-ivan-petrov", "--company", "Writer \(writer)",
                                                   "--if-revision", String(before)])
                results.add(result)
            }
            let all = results.all
            let after = try revision(db, "seed-ivan-petrov")
            #expect(all.filter { $0?.exitCode == 0 }.count == 1, "round \(round): \(all.map { $0?.stderr ?? "" })")
            #expect(all.filter { $0?.exitCode == 75 }.count == 3, "round \(round): \(all.map { $0?.stderr ?? "" })")
            #expect(after > before)
            for lost in all where lost?.exitCode == 75 {
                #expect(lost?.stderr.contains("revision \(after)") == true, "\(lost?.stderr ?? "")")
            }
        }
        let deleted = try cli.run(db: db, ["delete", "seed-ivan-petrov", "--if-revision", "1"])
        #expect(deleted.exitCode == 75)
        #expect(try cli.count(db) == 10)
    }

    /// A killed import was never committed: it leaves no change behind.
    @Test func aKilledImportLeavesNoChanges() throws {
        let db = try cli.makeDatabase(in: directory)
        let file = directory.write("big.json", try ContactsFixture.json(count: 8000))
        // Time one whole import, then kill others between 40% and 80% of
        // that time: inside the transaction, with room for the machine to
        // run faster or slower than it did.
        let timed = directory.path("timed.sqlite")
        try FileManager.default.copyItem(atPath: db, toPath: timed)
        let started = Date()
        #expect(try cli.run(db: timed, ["import", file]).exitCode == 0)
        let duration = Date().timeIntervalSince(started)
        let start = try token(db)
        var killed = 0, finished = false
        for fraction in [0.4, 0.6, 0.8] {
            finished = try ReliabilityTests.run(["--db", db, "import", file], killedAfter: Int(duration * fraction * 1_000_000))
            if finished { break }
            killed += 1
            #expect(try cli.count(db) == 10)
            let after = try token(db, since: start.token)
            #expect(after.changes.isEmpty, "killed at \(fraction): \(after.changes.count) changes")
        }
        #expect(killed >= 1, "every import finished before the kill: nothing was tested")
        // A machine faster than the timed run may finish an import the kill
        // was meant for: then its contacts are in, and importing again would
        // only collide with their ids.
        if !finished {
            let imported = try cli.run(db: db, ["import", file])
            #expect(imported.exitCode == 0, "\(imported.stderr)")
        }
        #expect(try token(db, since: start.token).changes.count == 8000)
    }

    /// A watcher in one process prints the new result after each commit of
    /// writers in other processes, within a second, and nothing for a
    /// commit that leaves its result as it was.
    @Test func aWatcherSeesEachCommitOfOtherProcesses() throws {
        let db = try cli.makeDatabase(in: directory)
        let watcher = try ProcessLines(CLIRunner.binary, arguments: ["--db", db, "watch", "--has", "telegram"])
        defer { watcher.stop(with: SIGKILL) }
        let first = try #require(watcher.next(within: 5)?.text)
        let initial = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [[String: Any]])
        #expect(!initial.isEmpty)
        let watched = try #require(initial.first?["id"] as? String)

        for age in 20..<25 {
            #expect(try cli.run(db: db, ["update", watched, "--age", String(age)]).exitCode == 0)
            let line = try #require(watcher.next(within: 1)?.text, "no result within a second of commit \(age)")
            let contacts = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
            #expect(contacts.first { $0["id"] as? String == watched }?["age"] as? Int == age)
        }
        // Outside the result: no line.
        #expect(try cli.run(db: db, ["add", "--first-name", "Unwatched"]).exitCode == 0)
        #expect(watcher.next(within: 0.5) == nil)
        // Into the result: a line holding it.
        #expect(try cli.run(db: db, ["add", "--first-name", "Watched", "--messenger", "telegram:@w"]).exitCode == 0)
        let joined = try #require(watcher.next(within: 1)?.text)
        #expect(joined.contains("\"firstName\": \"Watched\""))
        #expect(watcher.stop(with: SIGINT) == 0)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func watchEndsCleanlyOnASignal(_ signal: Int32) throws {
        let db = try cli.makeDatabase(in: directory)
        let watcher = try ProcessLines(CLIRunner.binary, arguments: ["--db", db, "watch", "--format", "json"])
        defer { watcher.stop(with: SIGKILL) }
        #expect(watcher.next(within: 5)?.text == "[")
        #expect(watcher.stop(with: signal) == 0)
    }
}

/// Results gathered from several threads.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [CLIRunner.Result?] = []
    var all: [CLIRunner.Result?] { lock.withLock { results } }
    func add(_ result: CLIRunner.Result?) { lock.withLock { results.append(result) } }
}
