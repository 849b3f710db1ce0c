import ArgumentParser
import ContactsDB

extension ContactsDBCommand {
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Apply pending migrations and say which.",
            discussion: "With --status, lists applied and pending migrations without changing anything.")

        @OptionGroup var database: DatabaseOptions

        @Flag(help: "List applied and pending migrations; change nothing.")
        var status = false

        func run() throws {
            if status {
                let status = try ContactStore.migrationStatus(at: database.path)
                for migration in status.applied { print("applied  \(migration.identifier)  \(migration.appliedAt)") }
                for identifier in status.pending { print("pending  \(identifier)") }
                return
            }
            let store = try database.openStore()
            let applied = store.openReport.appliedMigrations
            print(applied.isEmpty
                ? "\(store.path) is up to date; no migration was pending."
                : "Applied \(applied.joined(separator: ", ")) to \(store.path).")
        }
    }
}
