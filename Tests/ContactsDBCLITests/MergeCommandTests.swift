import CVips
import ContactsDB
@testable import ContactsDBSynthetic
import ContactsDBTestSupport
import Foundation
import Testing

/// `duplicates`, `merge`, `merges` and `unmerge`, each command a process
/// of its own against one database file.
@Suite struct MergeCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    /// One person three times: the number written three ways, the name in
    /// other cases, and a card without a name.
    static let people = """
        [{"id": "a", "firstName": "Anna", "lastName": "Petrova", "favorite": true, "groups": ["Work"],
          "phones": [{"type": "mobile", "value": "+7 912 111-22-33"}]},
         {"id": "b", "firstName": "ANNA", "lastName": "petrova", "favorite": true, "groups": ["Family"], "note": "met in Kazan",
          "phones": [{"type": "home", "value": "8 912 111 22 33"}], "emails": [{"type": "home", "value": "anna@example.com"}]},
         {"id": "c", "company": "Petrova Consulting", "birthday": "1990-04-12",
          "phones": [{"type": "work", "value": "+79121112233"}, {"type": "work", "value": "+1 415 555 0142"}]}]
        """

    func contactsAsShown(_ db: String, _ ids: [String]) throws -> [String] {
        try ids.map { id in
            try cli.run(db: db, ["show", id, "--format", "json"]).stdout
                .replacingOccurrences(of: #""revision": [0-9]+"#, with: "", options: .regularExpression)
        }
    }

    func state(_ db: String) throws -> [String] {
        try contactsAsShown(db, ["a", "b", "c"]) + [
            try cli.run(db: db, ["favorites", "--format", "json"]).stdout
                .replacingOccurrences(of: #""revision": [0-9]+"#, with: "", options: .regularExpression),
            try cli.run(db: db, ["group", "list", "--format", "json"]).stdout,
            try cli.run(db: db, ["query", "--count"]).stdout,
        ]
    }

    @Test func aMergeTakenBackRestoresEveryContactAsItWas() throws {
        let db = try cli.makeDatabase(in: directory)
        #expect(try cli.run(db: db, ["favorite", "seed-anna-muller"]).exitCode == 0)
        #expect(try cli.run(db: db, ["import", directory.write("people.json", Self.people)]).exitCode == 0)
        let jpeg = directory.path("b.jpg")
        try PhotoImage.sample(width: 320, height: 240, format: CVIPS_JPEG).write(to: URL(fileURLWithPath: jpeg))
        #expect(try cli.run(db: db, ["photo", "set", "b", jpeg]).exitCode == 0)
        let token = try #require(try cli.run(db: db, ["changes"]).lines.last?.split(separator: " ").last.map(String.init))

        let found = try cli.run(db: db, ["duplicates", "--format", "json"])
        #expect(found.stdout.contains(#"{"ids": ["a", "b", "c"], "confidence": "certain", "reasons": ["phone +79121112233"], "action": "merge"}"#),
                "\(found.stdout)")
        let before = try state(db)
        let dryRun = try cli.run(db: db, ["merge", "a", "b", "c", "--dry-run"])
        #expect(dryRun.exitCode == 0 && dryRun.stdout.contains(#""note": "met in Kazan""#))
        #expect(try state(db) == before, "a dry run changes nothing")

        let merge = try cli.run(db: db, ["merge", "a", "b", "c"])
        #expect(merge.exitCode == 0 && merge.stdout == "1\n", "\(merge.stderr)")
        let merged = try cli.run(db: db, ["show", "a", "--format", "json"]).stdout
        for piece in [#""note": "met in Kazan""#, #""birthday": "1990-04-12""#, #""groups": ["Family", "Work"]"#,
                      #""hasPhoto": true"#, #""value": "+1 415 555 0142""#, #""favorite": true"#] {
            #expect(merged.contains(piece), "\(piece) in \(merged)")
        }
        #expect(try cli.run(db: db, ["show", "b"]).exitCode == 1)
        let changes = try cli.run(db: db, ["changes", "--since", token]).stdout
        #expect(changes.contains("deleted") && changes.contains(" b\n") && changes.contains(" c\n") && changes.contains("updated"))
        #expect(try cli.run(db: db, ["favorites"]).lines.count == 3, "the favorites: seed-anna-muller and a")
        #expect(try cli.run(db: db, ["merges", "--format", "json"]).stdout.contains(#""into": "a", "merged": ["b", "c"]"#))

        let unmerge = try cli.run(db: db, ["unmerge", "1"])
        #expect(unmerge.exitCode == 0, "\(unmerge.stderr)")
        #expect(try state(db) == before)
        #expect(try cli.run(db: db, ["merges"]).stdout == "No merges.\n")
        #expect(try cli.run(db: db, ["unmerge", "1"]).exitCode == 1)
    }

    /// A merge in a book that is not the default is taken back into that
    /// book, survivor edited since or not, and after the book was renamed.
    @Test(arguments: [false, true])
    func anUnmergeRestoresIntoTheBookOfTheMerge(_ renamed: Bool) throws {
        let db = try cli.makeEmptyDatabase("books.sqlite", in: directory)
        #expect(try cli.run(db: db, ["book", "create", "work"]).exitCode == 0)
        #expect(try cli.run(db: db, ["import", directory.write("people.json", Self.people), "--book", "work"]).exitCode == 0)
        #expect(try cli.run(db: db, ["merge", "a", "b", "c"]).exitCode == 0)
        if renamed { #expect(try cli.run(db: db, ["book", "rename", "work", "office"]).exitCode == 0) }
        let unmerge = try cli.run(db: db, ["unmerge", "1"])
        #expect(unmerge.exitCode == 0, "\(unmerge.stderr)")
        for id in ["a", "b", "c"] {
            let shown = try cli.run(db: db, ["show", id, "--format", "json"]).stdout
            #expect(shown.contains(renamed ? #""book": "office""# : #""book": "work""#), "\(id): \(shown)")
        }
    }

    /// Issue 44, item 9: a retried `unmerge` must never take back another
    /// merge, so an id taken back is never given again, across processes.
    @Test func mergeIdsAreNeverReused() throws {
        let db = try cli.makeDatabase(in: directory)
        #expect(try cli.run(db: db, ["import", directory.write("people.json", Self.people)]).exitCode == 0)
        #expect(try cli.run(db: db, ["merge", "a", "b"]).stdout == "1\n")
        #expect(try cli.run(db: db, ["unmerge", "1"]).exitCode == 0)
        let again = try cli.run(db: db, ["merge", "a", "c"])
        #expect(again.exitCode == 0 && again.stdout == "2\n", "\(again.stdout)\(again.stderr)")
        #expect(try cli.run(db: db, ["unmerge", "1"]).exitCode == 1, "merge 1 was taken back already")
        #expect(try cli.run(db: db, ["show", "c"]).exitCode == 1, "merge 2 stands")
        #expect(try cli.run(db: db, ["unmerge", "2"]).exitCode == 0)
        #expect(try cli.run(db: db, ["merge", "b", "c"]).stdout == "3\n")
    }

    /// Issue 44, item 11: an id holding a line break would split
    /// `merge --all-certain`'s line (and cannot be written back as a UID):
    /// imported ids are refused with control characters as typed ones are.
    @Test func idsHoldingControlCharactersAreRefusedOnImport() throws {
        let db = try cli.makeDatabase(in: directory)
        let before = try cli.run(db: db, ["query", "--count"]).stdout
        let json = directory.write("ids.json", #"[{"id": "x\n1\tforged", "firstName": "Eve", "phones": [{"value": "+79121112299"}]}, {"id": "y", "firstName": "Eve", "phones": [{"value": "+79121112299"}]}]"#)
        let refused = try cli.run(db: db, ["import", json])
        #expect(refused.exitCode == 65 && refused.stderr.contains("[0].id") && refused.stderr.contains("U+000A"), "\(refused.stderr)")
        let card = directory.write("uid.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:x\\n1\r\nFN:Eve\r\nN:;Eve;;;\r\nEND:VCARD\r\n")
        let refusedCard = try cli.run(db: db, ["import", card])
        #expect(refusedCard.exitCode == 65 && refusedCard.stderr.contains("U+000A"), "\(refusedCard.stderr)")
        #expect(try cli.run(db: db, ["query", "--count"]).stdout == before, "nothing written")
    }

    @Test func anEditedSurvivorIsLeftAsItIs() throws {
        let db = try cli.makeDatabase(in: directory)
        #expect(try cli.run(db: db, ["import", directory.write("people.json", Self.people)]).exitCode == 0)
        let before = try contactsAsShown(db, ["b", "c"])
        #expect(try cli.run(db: db, ["merge", "c", "a", "b", "--into", "a"]).exitCode == 0)
        #expect(try cli.run(db: db, ["update", "a", "--job-title", "Editor"]).exitCode == 0)
        let unmerge = try cli.run(db: db, ["unmerge", "1"])
        #expect(unmerge.exitCode == 0 && unmerge.stderr.contains("left as it is"))
        #expect(try contactsAsShown(db, ["b", "c"]) == before)
        let survivor = try cli.run(db: db, ["show", "a", "--format", "json"]).stdout
        #expect(survivor.contains(#""jobTitle": "Editor""#) && survivor.contains(#""note": "met in Kazan""#))
    }

    @Test func badMergesChangeNothing() throws {
        let db = try cli.makeDatabase(in: directory)
        #expect(try cli.run(db: db, ["import", directory.write("people.json", Self.people)]).exitCode == 0)
        for (arguments, code) in [(["merge", "a"], 64), (["merge", "a", "a"], 64), (["merge", "a", "nobody"], 1),
                                  (["merge", "--all-certain", "a"], 64), (["unmerge", "7"], 1)] as [([String], Int32)] {
            let result = try cli.run(db: db, arguments)
            #expect(result.exitCode == code, "\(arguments)")
            #expect(result.stderr.split(separator: "\n").first?.hasPrefix("Error: ") == true)
        }
        #expect(try cli.run(db: db, ["query", "--count"]).stdout == "13\n")
    }

    /// `merge --all-certain` killed at random moments: each time the
    /// database holds every merge or none.
    @Test func aKilledMergeLeavesAllOrNothing() throws {
        let data = directory.write("planted.json", try cli.run(["generate", "--contacts", "3000", "--planted-duplicates", "300"]).stdout)
        let template = try cli.makeEmptyDatabase("template.sqlite", in: directory)
        #expect(try cli.run(db: template, ["import", data]).exitCode == 0)
        let certain = PlantedDuplicates(count: 3000, sets: 300).planted.filter { $0.confidence == .certain }
        let mergedAway = certain.map { $0.ids.count - 1 }.reduce(0, +)
        var random = SplitMix64(seed: 33)
        var outcomes: [Bool] = []
        for trial in 0..<6 {
            let db = directory.path("trial\(trial).sqlite")
            try FileManager.default.copyItem(atPath: template, toPath: db)
            let finished = try ReliabilityTests.run(["--db", db, "merge", "--all-certain"], killedAfter: 100_000 + random.below(1_500_000))
            let merges = try cli.run(db: db, ["merges", "--format", "json"]).stdout.components(separatedBy: #""into""#).count - 1
            let count = Int(try cli.run(db: db, ["query", "--count"]).stdout.trimmingCharacters(in: .newlines))
            #expect(merges == 0 || merges == certain.count, "trial \(trial): \(merges) merges")
            #expect(count == 3000 - (merges == 0 ? 0 : mergedAway))
            #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
            outcomes.append(finished)
        }
        print("killed merge: \(outcomes.filter { $0 }.count) of 6 finished before the kill")
    }
}
