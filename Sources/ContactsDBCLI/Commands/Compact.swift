import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Compact: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compact",
            abstract: "Forget the contacts deleted before a date, which `changes` no longer reports.",
            discussion: """
                The trash forgets them too. A change token from before the newest deletion forgotten is then \
                refused (exit 65), and its holder must sync again from scratch.
                """)

        @OptionGroup var database: DatabaseOptions
        @Option(help: ArgumentHelp(
            "Forget deletions before this UTC date or time (2026-01-31 or 2026-01-31T12:00:00Z).", valueName: "date"))
        var changesBefore: String

        func validate() throws {
            _ = try cutoff()
        }

        func run() throws {
            let store = try database.openStore()
            let count = try store.compactChanges(before: try cutoff())
            print("Forgot \(count) deleted contact\(count == 1 ? "" : "s").")
        }

        private func cutoff() throws -> Date {
            try CutoffDate.parse(changesBefore, option: "--changes-before")
        }
    }
}
