import ArgumentParser
import ContactsDB
import Foundation

@main
struct ContactsDBCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contactsdb",
        abstract: "A local contacts database: seed, query, add, update, delete, import and export contacts.",
        discussion: """
            The database is --db PATH, else $CONTACTSDB_PATH, else \
            $XDG_DATA_HOME/contactsdb/contacts.sqlite (~/.local/share/… when XDG_DATA_HOME is unset). \
            Every command creates and migrates it when needed, and imports the bundled seed on first use.
            """,
        version: "0.1.0",
        subcommands: [
            Init.self, Migrate.self, Seed.self, Query.self, Show.self, Add.self, Update.self,
            Delete.self, Favorite.self, Unfavorite.self, Favorites.self, Group.self, Import.self, Export.self,
            Reindex.self, Doctor.self, Backup.self, Generate.self, Bench.self, PhoneLookup.self, Settings.self,
        ])

    /// Runs the command and turns every failure into one sentence on stderr
    /// and the exit code SPEC.md gives it.
    static func main() {
        do {
            var command = try parseAsRoot(movingGlobalOptions(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch let error as ContactsDBError {
            Terminal.printError(error.localizedDescription)
            Foundation.exit(error.exitCode)
        } catch {
            exit(withError: error)
        }
    }
}

/// `contactsdb --db PATH COMMAND …` → `contactsdb COMMAND … --db PATH`:
/// each command declares the database options, and ArgumentParser reads a
/// command's options only after its name.
func movingGlobalOptions(_ arguments: [String]) -> [String] {
    let globalOptions = ["--db", "--busy-timeout"]
    var global: [String] = []
    var rest = arguments[...]
    while let first = rest.first {
        if globalOptions.contains(first), rest.count >= 2 {
            global += rest.prefix(2)
            rest = rest.dropFirst(2)
        } else if globalOptions.contains(where: { first.hasPrefix($0 + "=") }) {
            global.append(first)
            rest = rest.dropFirst()
        } else {
            break
        }
    }
    guard !global.isEmpty, let command = rest.first else { return arguments }
    // Before an unknown command they are dropped: the parse then fails on
    // the command itself, which is the real mistake.
    let commands = ContactsDBCommand.configuration.subcommands.map { $0._commandName }
    guard commands.contains(command) else { return Array(rest) }
    let end = rest.firstIndex(of: "--") ?? rest.endIndex
    return Array(rest[..<end]) + global + Array(rest[end...])
}

extension ContactsDBError {
    /// SPEC's exit codes: the one place domain errors meet them.
    var exitCode: Int32 {
        switch self {
        case .contactsNotFound, .groupNotFound: return 1
        case .invalidContact, .malformedJSON, .duplicateContactID, .groupExists: return 65
        case .unreadableFile: return 66
        case .databaseTooNew, .migrationEdited, .migrationRecordsDamaged, .notContactsDatabase, .databaseUnavailable, .databaseBusy: return 74
        case .migrationFailed, .databaseFailure: return 70
        }
    }
}
