import ContactsDBTestSupport
import Foundation
import Testing

/// `bench --format json` is read by scripts that watch for regressions.
@Suite struct BenchCommandTests {
    @Test func jsonReportsTheImportPhasesItsTwinAndEveryQuery() throws {
        let result = try CLIRunner().run(["bench", "--contacts", "200", "--runs", "20", "--format", "json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["contacts"] as? Int == 200)
        let phases = try #require(report["importPhases"] as? [String: Double])
        #expect(Set(phases.keys) == ["parse", "validateAndDerive", "write", "indexBuild", "searchIndex", "commit"])
        #expect(phases.values.allSatisfy { $0 >= 0 })
        #expect(phases["parse", default: 0] > 0 && phases["write", default: 0] > 0)
        let importSeconds = try #require(report["importSeconds"] as? Double)
        #expect(phases["write", default: 0] <= importSeconds)
        // The raw twin of the import wrote the same rows and read the same
        // numbers.
        let twin = try #require(report["importTwin"] as? [String: Double])
        #expect(Set(twin.keys) == ["rows", "indexBuild", "searchIndex", "commit", "phones", "together"])
        #expect(twin.values.allSatisfy { $0 >= 0 })
        #expect(twin["rows", default: 0] > 0 && twin["together", default: 0] > 0)
        let queries = try #require(report["queries"] as? [[String: Any]])
        // The unified variants over a tenth of the contacts linked, each
        // with the rows of its twin (a mismatch fails the run), U9–U14 in
        // the orders other than the default.
        #expect(queries.map { $0["query"] as? String }
                == (1...15).map { "Q\($0)" } + ["U1", "U3", "U4", "U8"] + (9...14).map { "U\($0)" })
        let rows = Dictionary(uniqueKeysWithValues: queries.map { ($0["query"] as? String ?? "", $0["rows"] as? Int ?? -1) })
        #expect(rows["U1"] == 50 && rows["U8"] ?? 0 > 0 && rows["U8"] ?? 0 <= rows["Q8"] ?? 0)
        #expect((9...14).allSatisfy { rows["U\($0)"] ?? 0 > 0 })
    }

    @Test func booksDealTheContactsAndQ15ReadsOneOfThem() throws {
        let directory = TemporaryDirectory()
        let kept = directory.path("bench.sqlite")
        let cli = CLIRunner()
        let result = try cli.run(["bench", "--contacts", "300", "--books", "3", "--runs", "20", "--links", "0",
                                  "--format", "json", "--keep", kept])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["contacts"] as? Int == 300)
        let books = try cli.run(db: kept, ["book", "list", "--format", "json"]).stdout
        #expect(books.contains(#"{"contacts":100,"default":true,"name":"local","remote":null}"#))
        #expect(books.contains(#"{"contacts":100,"default":false,"name":"book-3","remote":null}"#))
        let queries = try #require(report["queries"] as? [[String: Any]])
        let q15 = try #require(queries.first { $0["query"] as? String == "Q15" })
        #expect(q15["rows"] as? Int == 50)
    }
}
