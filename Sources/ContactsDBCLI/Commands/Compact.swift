import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Compact: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compact",
            abstract: "Forget the contacts deleted before a date, which `changes` no longer reports, or the history before one.",
            discussion: """
                The trash forgets those contacts too. A change token from before the newest deletion forgotten is \
                then refused (exit 65), and its holder must sync again from scratch.
                """)

        @OptionGroup var database: DatabaseOptions
        @Option(help: ArgumentHelp(
            "Forget deletions before this UTC date or time (2026-01-31 or 2026-01-31T12:00:00Z).", valueName: "date"))
        var changesBefore: String?
        @Option(help: ArgumentHelp(
            "Forget the versions of contacts replaced before this UTC date or time.", valueName: "date"))
        var historyBefore: String?

        func validate() throws {
            if changesBefore == nil, historyBefore == nil {
                throw ValidationError("Please give --changes-before, --history-before or both.")
            }
            _ = try cutoffs()
        }

        func run() throws {
            let store = try database.openStore()
            let (changes, history) = try cutoffs()
            if let changes {
                let count = try store.compactChanges(before: changes)
                print("Forgot \(count) deleted contact\(count == 1 ? "" : "s").")
            }
            if let history {
                let count = try store.compactHistory(before: history)
                print("Forgot \(count) replaced version\(count == 1 ? "" : "s").")
            }
        }

        private func cutoffs() throws -> (changes: Date?, history: Date?) {
            (try changesBefore.map { try CutoffDate.parse($0, option: "--changes-before") },
             try historyBefore.map { try CutoffDate.parse($0, option: "--history-before") })
        }
    }
}
