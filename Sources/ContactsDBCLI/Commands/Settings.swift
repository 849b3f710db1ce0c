import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Settings: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "settings",
            abstract: "Show or change this database's settings.",
            subcommands: [Regions.self])

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
    }
}
