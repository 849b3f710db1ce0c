import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Compact: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compact",
            abstract: "Forget the contacts deleted before a date, which `changes` no longer reports.",
            discussion: """
                A change token from before the newest deletion forgotten is then refused (exit 65), and \
                its holder must sync again from scratch.
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
            guard let date = Timestamp.date(from: changesBefore)
                    ?? (changesBefore.count == 10 ? Timestamp.date(from: changesBefore + "T00:00:00Z") : nil)
            else {
                throw ValidationError("Please give --changes-before as a UTC date, 2026-01-31, or time, 2026-01-31T12:00:00Z (got \"\(changesBefore)\").")
            }
            return date
        }
    }
}
