import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Settings: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "settings",
            abstract: "Show or change this database's settings.",
            subcommands: [Regions.self, TrashDays.self, HistoryDays.self, HistoryVersions.self])

        struct Regions: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "regions",
                abstract: "Show or set the default phone regions (RU,KR unless set).",
                discussion: """
                    A number written without "+" takes its country from the first of these regions \
                    in which libphonenumber finds it valid. Setting them re-normalizes every stored \
                    number, in one transaction.
                    """)

            @OptionGroup var database: DatabaseOptions
            @Argument(help: "Region codes separated by commas, e.g. US,GB.") var regions: String?

            func validate() throws {
                if let regions, PhoneRegions(regions) == nil {
                    throw ValidationError("Please give region codes libphonenumber knows, separated by commas (e.g. US,GB); \"\(regions)\" holds one it does not know.")
                }
            }

            func run() throws {
                let store = try database.openStore()
                guard let text = regions, let regions = PhoneRegions(text) else {
                    return print(try store.phoneRegions())
                }
                let count = try store.setPhoneRegions(regions)
                print("Default phone regions: \(regions); re-normalized the numbers of \(count) contacts.")
            }
        }

        struct TrashDays: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "trash-days",
                abstract: "Show or set how many days the trash keeps a deleted contact (30 unless set).",
                discussion: "0 keeps nothing and empties the trash; a smaller number forgets what is older at once.")

            @OptionGroup var database: DatabaseOptions
            @Argument(help: "Days, 0 or more.") var days: Int?

            func validate() throws { try Settings.require(days, atLeast: 0, "days") }

            func run() throws {
                try Settings.showOrSet(days, database, get: { try $0.trashDays() }, set: { try $0.setTrashDays($1) }) {
                    $0 == 0 ? "The trash keeps nothing now, and is empty." : "The trash keeps deleted contacts for \($0) days."
                }
            }
        }

        struct HistoryDays: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "history-days",
                abstract: "Show or set how many days a contact's history keeps a replaced version (90 unless set).")

            @OptionGroup var database: DatabaseOptions
            @Argument(help: "Days, 0 or more.") var days: Int?

            func validate() throws { try Settings.require(days, atLeast: 0, "days") }

            func run() throws {
                try Settings.showOrSet(days, database, get: { try $0.historyDays() }, set: { try $0.setHistoryDays($1) }) {
                    "The history keeps replaced versions for \($0) days."
                }
            }
        }

        struct HistoryVersions: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "history-versions",
                abstract: "Show or set how many versions of a contact its history keeps, the current one included (50 unless set).")

            @OptionGroup var database: DatabaseOptions
            @Argument(help: "Versions, 1 or more.") var versions: Int?

            func validate() throws { try Settings.require(versions, atLeast: 1, "versions") }

            func run() throws {
                try Settings.showOrSet(versions, database, get: { try $0.historyVersions() },
                                       set: { try $0.setHistoryVersions($1) }) {
                    "The history keeps at most \($0) versions of each contact."
                }
            }
        }

        // MARK: - Non public

        /// A whole-number setting given is at least `minimum`.
        static func require(_ value: Int?, atLeast minimum: Int, _ unit: String) throws {
            if let value, value < minimum { throw ValidationError("Please give \(minimum) or more \(unit) (got \(value)).") }
        }

        /// Prints a whole-number setting, or sets it to `value` and says
        /// what it is now.
        static func showOrSet(
            _ value: Int?, _ database: DatabaseOptions, get: (ContactStore) throws -> Int,
            set: (ContactStore, Int) throws -> Void, said: (Int) -> String
        ) throws {
            let store = try database.openStore()
            guard let value else { return print(try get(store)) }
            try set(store, value)
            print(said(value))
        }
    }
}
