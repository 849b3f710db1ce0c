import ArgumentParser
import CSQLiteSettings
import ContactsDB
import Foundation

/// Runs `contactsdb` with this process's arguments; `remoteAccess` runs
/// `remote add` and `sync` (nil hands them over to `contactsdb-sync`).
package func runContactsDB(remoteAccess: (any RemoteAccess)?) -> Never {
    // Before any database opens. SQLite then takes no global lock for each
    // of its allocations: 2.6% of an import's instructions.
    let stopped = csqlite_stop_counting_memory()
    assert(stopped == 1, "SQLite was in use before the command ran")
    ContactsDBCommand.remoteAccess = remoteAccess
    ContactsDBCommand.main()
}

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
            Delete.self, Photo.self, Favorite.self, Unfavorite.self, Favorites.self, Group.self, Import.self, Export.self,
            Changes.self, Watch.self, Compact.self, Birthdays.self, RemoteCommand.self, Sync.self, Conflicts.self,
            Duplicates.self, Merge.self, Merges.self, Unmerge.self, EmailAddresses.self,
            Reindex.self, Doctor.self, Backup.self, Generate.self, Bench.self, PhoneLookup.self, Settings.self,
        ])

    /// Set once, before the command line is parsed.
    nonisolated(unsafe) static var remoteAccess: (any RemoteAccess)?

    /// What runs a command that reaches the network; in `contactsdb`,
    /// which does not link the network stack, the helper takes over here.
    static func network() throws -> any RemoteAccess {
        guard let remoteAccess else { try SyncHelper.handOver() }
        return remoteAccess
    }

    /// Runs the command and turns every failure into one sentence on stderr
    /// and the exit code SPEC.md gives it (``ExitStatus``).
    static func main() -> Never {
        // A reader closing the pipe early ends the process quietly, as it
        // ends `cat`, even when the parent ignored SIGPIPE.
        signal(SIGPIPE, SIG_DFL)
        var command: ParsableCommand
        do {
            command = try parseAsRoot(movingGlobalOptions(Array(CommandLine.arguments.dropFirst())))
        } catch {
            fail(error)
        }
        do {
            try command.run()
        } catch {
            fail(error)
        }
        finish()
    }

    /// Writes out standard output and exits 0, or 74 when it failed.
    private static func finish() -> Never {
        do {
            try StandardOutput.finish()
        } catch {
            fail(error)
        }
        Foundation.exit(0)
    }

    private static func fail(_ error: Error) -> Never {
        // What was printed before the failure still goes out (doctor's
        // findings before its exit code).
        try? StandardOutput.finish()
        guard ExitStatus.isArgumentParserError(error) else {
            let status = ExitStatus(error)
            Terminal.printError(status.message)
            Foundation.exit(status.code)
        }
        // Usage errors go to stderr with ArgumentParser's code (64); the
        // text of --help and --version is output, checked like any result.
        guard exitCode(for: error) == .success else { exit(withError: error) }
        print(fullMessage(for: error))
        finish()
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
