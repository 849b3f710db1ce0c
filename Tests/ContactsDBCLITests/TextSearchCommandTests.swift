import ContactsDBTestSupport
import Foundation
import GRDB
import Testing

/// `query --text` across processes: each write, in whatever process it is
/// made, is found (or no longer found) by the next query; `doctor` sees an
/// index out of step and `reindex` mends it.
@Suite struct TextSearchCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    func ids(_ db: String, _ arguments: [String]) throws -> [String] {
        let result = try cli.run(db: db, ["query", "--format", "ndjson"] + arguments)
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
    }

    @Test func everyWriteIsFoundByTheNextProcess() throws {
        let db = try cli.makeEmptyDatabase("search.sqlite", in: directory)
        let added = try cli.run(db: db, ["add", "--first-name", "Jürgen", "--last-name", "Weiß", "--job-title", "Orchard keeper",
                                         "--note", "Sauna on Fridays; plays the bass", "--email", "work:j.weiss@posteo.de",
                                         "--phone", "+49 30 1234 5678"])
        #expect(added.exitCode == 0, "\(added.stderr)")
        let id = try #require(try ids(db, []).first)
        // Any field, any case or accent, words in any order, prefixes.
        for text in ["sauna", "SAUNA fri", "orch", "weiss", "jurgen", "posteo", "J.WEISS", "bass keeper", "1234", "5678 sauna"] {
            #expect(try ids(db, ["--text", text]) == [id], "\(text)")
        }
        for text in ["saunas", "fridays sauna x", "posteo.com", "9999", "30 12"] {
            #expect(try ids(db, ["--text", text]).isEmpty, "\(text)")
        }
        // ANDed with the other filters and counted.
        #expect(try ids(db, ["--text", "sauna", "--has", "email"]) == [id])
        #expect(try ids(db, ["--text", "sauna", "--has", "telegram"]).isEmpty)
        #expect(try cli.run(db: db, ["query", "--text", "bass", "--count"]).stdout == "1\n")

        // An update replaces the words; a delete removes them.
        #expect(try cli.run(db: db, ["update", id, "--note", "Chess on Mondays"]).exitCode == 0)
        #expect(try ids(db, ["--text", "sauna"]).isEmpty)
        #expect(try ids(db, ["--text", "chess"]) == [id])
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ana Lima\r\nN:Lima;Ana;;;\r\nNOTE:Chess club captain\r\nEND:VCARD\r\n"
        let file = directory.path("ana.vcf")
        try card.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try cli.run(db: db, ["import", file]).exitCode == 0)
        #expect(try ids(db, ["--text", "chess"]).count == 2)
        #expect(try ids(db, ["--text", "chess capt"]).count == 1)
        #expect(try cli.run(db: db, ["delete", id]).exitCode == 0)
        #expect(try ids(db, ["--text", "mondays"]).isEmpty)
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
    }

    @Test func doctorFindsAnIndexOutOfStepAndReindexMendsIt() throws {
        let db = try cli.makeDatabase(in: directory)
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
        // The index loses one contact's words behind the engine's back.
        try DatabaseQueue(path: db).write { db in
            try db.execute(sql: """
                INSERT INTO contactSearch (contactSearch, rowid, searchWords)
                SELECT 'delete', pk, searchWords FROM contact WHERE id = 'seed-ivan-petrov'
                """)
        }
        let doctor = try cli.run(db: db, ["doctor"])
        #expect(doctor.exitCode != 0 && doctor.stdout.contains("the search index differs"), "\(doctor.stdout)")
        #expect(try cli.run(db: db, ["reindex"]).exitCode == 0)
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
        #expect(try ids(db, ["--text", "petrov"]) == ["seed-ivan-petrov"])
    }

    /// Search as people type (docs/cli.md, "Querying"), across processes: a
    /// contact written by one process is found by its initial consonants and
    /// transliteration in the next, through the indexes; `reindex` derives the
    /// keys again, and no export carries them.
    @Test func namesAreFoundAsPeopleTypeThemInOtherScripts() throws {
        let db = try cli.makeDatabase(in: directory)
        let added = try cli.run(db: db, ["add", "--first-name", "Ivan", "--last-name", "Smith"])
        #expect(added.exitCode == 0, "\(added.stderr)")
        let smith = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for _ in 0..<2 {
            for (filter, query, expected) in [
                ("--name", "ㅎㄱㄷ", ["seed-hong-gildong"]), ("--text", "ㄱㄷ", ["seed-hong-gildong"]),
                ("--name", "ㄱㅁ", ["seed-kim-minji"]), ("--name", "kim", ["seed-kim-minji"]),
                ("--name", "minji", ["seed-kim-minji"]), ("--name", "petrov", ["seed-ivan-petrov"]),
                ("--name", "иван", [smith, "seed-ivan-petrov", "seed-olga-ivanova"]), ("--text", "smith иван", [smith]),
            ] {
                #expect(Set(try ids(db, [filter, query])) == Set(expected), "\(filter) \(query)")
            }
            #expect(try ids(db, ["--name", "ㄱㅁ", "--has", "telegram"]).isEmpty)
            #expect(try cli.run(db: db, ["reindex"]).exitCode == 0)
        }
        for query in ["ㄱㅁ", "иван"] {
            let explain = try cli.run(db: db, ["query", "--name", query, "--explain"])
            #expect(explain.exitCode == 0 && explain.stdout.contains("nameWord"), "\(explain.stdout)")
            #expect(!explain.stdout.contains("SCAN contact\n") && !explain.stdout.contains("SCAN contact "), "\(explain.stdout)")
        }
        for format in ["json", "vcard"] {
            let export = try cli.run(db: db, ["export", "--format", format])
            // The consonants as typed and as stored (conjoining jamo).
            let keys = ["ㅎㄱㄷ", "ㄱㅁㅈ", "ㅎㄱㄷ".decomposedStringWithCompatibilityMapping]
            #expect(export.exitCode == 0 && export.stdout.contains("홍") && !keys.contains(where: export.stdout.contains),
                    "\(format)")
        }
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
    }

    @Test func aTextOfNoWordsIsRefused() throws {
        let db = try cli.makeDatabase(in: directory)
        let result = try cli.run(db: db, ["query", "--text", "@ -- !"])
        #expect(result.exitCode == 64 && result.stderr.contains("--text at least one word"), "\(result.stderr)")
    }
}
