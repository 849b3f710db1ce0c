import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Create and migrate the database, and import the bundled seed.")

        @OptionGroup var database: DatabaseOptions

        @Flag(help: "Do not import the bundled seed, now or on any later open (an explicit `seed` still can).")
        var noSeed = false

        func run() throws {
            let store = try database.openStore(seedsOnFirstOpen: !noSeed)
            let report = store.openReport
            if report.appliedMigrations.isEmpty {
                print("\(store.path) is already initialized.")
            } else {
                print("Initialized \(store.path) (migrations \(report.appliedMigrations.joined(separator: ", "))).")
            }
            if let seed = report.seedImport {
                print("Imported the bundled seed: \(seed.contactCount) contacts.")
            } else if noSeed, try store.seedImports().isEmpty {
                try store.declineBundledSeed()
                print("The bundled seed is declined; `contactsdb seed` imports it on request.")
            }
        }
    }
}
