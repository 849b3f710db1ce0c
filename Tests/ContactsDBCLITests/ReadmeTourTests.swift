import ContactsDBTestSupport
import Foundation
import Testing

/// README's tour, run: every `$ contactsdb …` line of its console blocks
/// exits 0 against a fresh database, in order, the sync against a Xandikos
/// started here, so that README cannot drift from the build.
@Suite struct ReadmeTourTests {
    static let readme = DAVPeers.root.appendingPathComponent("README.md")
    /// The server README's sync lines name, replaced by a real one.
    static let exampleServer = "https://dav.example.com/"

    /// The commands of README's "A tour" section, in order.
    static func tourCommands() throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let start = text.range(of: "\n## A tour\n") else { return [] }
        let section = text[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
        var commands: [String] = [], inConsole = false
        for line in section.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inConsole = line == "```console" ? !inConsole : false; continue }
            if inConsole, line.hasPrefix("$ ") { commands.append(String(line.dropFirst(2))) }
        }
        return commands
    }

    @Test func everyCommandOfTheTourRunsAgainstAFreshDatabase() throws {
        let commands = try Self.tourCommands()
        #expect(commands.count >= 15, "README's tour has its commands: \(commands)")
        #expect(commands.allSatisfy { $0.hasPrefix("contactsdb ") })
        let directory = TemporaryDirectory()
        let server = DAVPeers.isAvailable ? try DAVServer(.xandikos, in: directory) : nil
        let work = directory.path("tour")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        var ran = 0
        for command in commands {
            let needsServer = command.contains("remote ") || command.hasPrefix("contactsdb sync")
            guard !needsServer || server != nil else { continue }
            var line = command.replacingOccurrences(of: Self.exampleServer, with: server?.root ?? Self.exampleServer)
            // `serve --feed-url` prints the feed's address and exits.
            if command.hasPrefix("contactsdb serve") && !command.contains("--feed-url") {
                line = Self.stoppedAfterItsAddress(line)
            }
            let result = try Self.bash(line, in: work, database: work + "/contacts.sqlite")
            #expect(result.status == 0, "\(command) exited \(result.status): \(result.output)")
            ran += 1
        }
        #expect(ran == commands.count || server == nil)
    }

    /// `serve` runs until stopped: it passes when it prints its address
    /// and then exits 0 on SIGTERM.
    private static func stoppedAfterItsAddress(_ line: String) -> String {
        """
        coproc \(line)
        read -r address <&"${COPROC[0]}"
        kill -TERM "$COPROC_PID"; wait "$COPROC_PID"; status=$?
        [[ $address == http://127.0.0.1:*/?code=* ]] && exit $status
        echo "serve printed '$address'"; exit 1
        """
    }

    private static func bash(_ line: String, in directory: String, database: String) throws -> (status: Int32, output: String) {
        let path = CLIRunner.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try DAVPeers.runToEnd("/bin/bash", ["-c", line], environment: [
            "PATH": path, "CONTACTSDB_PATH": database, "DAV_PASSWORD": DAVServer.password, "HOME": directory,
        ], in: directory)
    }
}

/// The man page and the shell completions, made from the command's own
/// definitions as `scripts/install` makes them.
@Suite(.enabled(if: ManualTool.isAvailable, "generate-manual-tool is not built: run scripts/test"))
struct ManualAndCompletionTests {
    let cli = CLIRunner()

    @Test func theManPageNamesEveryCommand() throws {
        let directory = TemporaryDirectory()
        let output = directory.path("man1")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        _ = try DAVPeers.run(ManualTool.path, [CLIRunner.binary.path, "--output-directory", output])
        let page = try String(contentsOfFile: output + "/contactsdb.1", encoding: .utf8)
        #expect(page.contains(".Dt CONTACTSDB 1"))
        for command in ["query", "import", "export", "sync", "duplicates", "merge", "unmerge", "group"] {
            #expect(page.contains(command), "\(command) in the man page")
        }
    }

    @Test func bashCompletesTheCommands() throws {
        let directory = TemporaryDirectory()
        let script = directory.write("contactsdb.bash", try cli.run(["--generate-completion-script", "bash"]).stdout)
        let words = try DAVPeers.run("/bin/bash", ["-c", """
            source '\(script)'
            COMP_WORDS=(contactsdb ""); COMP_CWORD=1; COMP_LINE="contactsdb "; COMP_POINT=11
            _contactsdb contactsdb "" contactsdb
            printf '%s\\n' "${COMPREPLY[@]}"
            """]).split(separator: "\n").map(String.init)
        for command in ["query", "sync", "duplicates", "merge", "unmerge"] { #expect(words.contains(command)) }
        for shell in ["zsh", "fish"] {
            let result = try cli.run(["--generate-completion-script", shell])
            #expect(result.exitCode == 0 && result.stdout.contains("contactsdb"))
        }
    }
}

/// swift-argument-parser's generate-manual tool, built beside the tests by
/// `scripts/test` (its plugin, run on the debug build).
enum ManualTool {
    static let path = CLIRunner.binary.deletingLastPathComponent().appendingPathComponent("generate-manual-tool").path
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: path) || ProcessInfo.processInfo.environment["CONTACTSDB_REQUIRE_DAV"] != nil
    }
}
