import Foundation
import Testing

/// The getting-started article's code (Snippets/GettingStarted.swift, which
/// `swift build` compiles) runs as the article says.
@Suite struct GettingStartedTests {
    @Test func theArticlesCodeRuns() throws {
        let snippet = CLIRunner.binary.deletingLastPathComponent().appendingPathComponent("GettingStarted")
        #expect(FileManager.default.isExecutableFile(atPath: snippet.path), "build the package first (swift build)")
        var runner = CLIRunner()
        runner.binary = snippet
        let result = try runner.run([])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.lines.first == "seeded: 10")
        // Telegram and a phone, by last name, descending: Lovelace among them.
        #expect(result.lines.contains("L Ada Lovelace"))
        // The section index with each section's rows: Ada is under L.
        #expect(result.lines.contains { $0.hasPrefix("L ") && $0.contains("\"Ada Lovelace\"") })
        // Sections, then the vCard import of one card.
        #expect(result.lines.last?.hasSuffix(" 1") == true)
    }
}
