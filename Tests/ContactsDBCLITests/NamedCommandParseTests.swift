import ArgumentParser
@testable import ContactsDBCLI
import Foundation
import Testing

/// A command line is parsed by the command it names (the fast path), yet
/// reads as the root's parse would: help, usage errors and completions are
/// left to the root, byte for byte.
@Suite struct NamedCommandParseTests {
    /// Every command without subcommands, as the words that name it.
    static let leaves: [[String]] = {
        func walk(_ command: ParsableCommand.Type, _ path: [String]) -> [[String]] {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return [path] }
            return subcommands.flatMap { walk($0, path + [$0._commandName]) }
        }
        return walk(ContactsDBCommand.self, [])
    }()

    @Test func theNamedCommandParsesAValidLineAsTheRootDoes() throws {
        let arguments = ["query", "--has", "phone", "--sort", "last-name:desc", "--limit", "5", "--db", "/tmp/x.sqlite"]
        let named = try #require(ContactsDBCommand.parseNamedCommand(arguments) as? ContactsDBCommand.Query)
        let root = try #require(try ContactsDBCommand.parseAsRoot(arguments) as? ContactsDBCommand.Query)
        #expect(String(describing: named) == String(describing: root))
    }

    @Test(arguments: leaves)
    func helpUsageErrorsAndCompletionsAreTheRoots(_ path: [String]) {
        for tail in [["--help"], ["-h"], ["--bogus-option"], ["--generate-completion-script", "bash"],
                     ["--experimental-dump-help"], ["--version"]] {
            #expect(ContactsDBCommand.parseNamedCommand(path + tail) == nil, "\(path + tail)")
        }
    }

    /// `contactsdb --help` lists every command once, under one of four
    /// headings.
    @Test func theRootsHelpListsEachCommandUnderItsGroup() throws {
        let configuration = ContactsDBCommand.configuration
        #expect(configuration.ungroupedSubcommands.isEmpty && configuration.groupedSubcommands.count == 4)
        let names = configuration.subcommands.map { $0._commandName }
        #expect(Set(names).count == names.count)
        let help = ContactsDBCommand.helpMessage(columns: 200)
        var rest = help[...]
        for (group, heading) in zip(configuration.groupedSubcommands,
                                    ["CONTACTS", "BOOKS AND SYNC", "INTERCHANGE", "MAINTENANCE"]) {
            let start = try #require(rest.range(of: "\n\(heading) SUBCOMMANDS:\n"), "\(heading) in\n\(help)")
            rest = rest[start.upperBound...]
            let section = String(rest).components(separatedBy: "\n\n")[0]
            let listed = section.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
            #expect(group.subcommands.map { $0._commandName }.allSatisfy(listed.contains), "\(heading): \(listed)")
        }
    }

    /// Through the built binary: `contactsdb X --help` is `contactsdb help X`.
    @Test func eachCommandsHelpNamesTheWholeCommand() throws {
        let runner = CLIRunner()
        for path in Self.leaves {
            let help = try runner.run(path + ["--help"])
            #expect(help.exitCode == 0)
            #expect(help.stdout.contains("USAGE: contactsdb \(path.joined(separator: " "))"), "\(path)")
            #expect(help.stdout == (try runner.run(["help"] + path)).stdout, "\(path)")
        }
    }
}
