import ArgumentParser
import CSQLiteSettings
import ContactsDB
import Foundation

/// Runs `contactsdb` with this process's arguments; `remoteAccess` runs
/// `remote add` and `sync` (nil hands them over to `contactsdb-sync`),
/// `webServer` runs `serve` (nil hands it over to `contactsdb-serve`).
package func runContactsDB(remoteAccess: (any RemoteAccess)?, webServer: (any WebServer)? = nil) -> Never {
    // Before any database opens. SQLite then takes no global lock for each
    // of its allocations: 2.6% of an import's instructions.
    let stopped = csqlite_stop_counting_memory()
    assert(stopped == 1, "SQLite was in use before the command ran")
    ContactsDBCommand.remoteAccess = remoteAccess
    ContactsDBCommand.webServer = webServer
    AddressSpaceLimit.reportCrashesAsExhaustion()
    ContactsDBCommand.main()
}

/// A process under an address-space limit (`ulimit -v`, `prlimit --as`)
/// whose memory runs out where Swift cannot throw (an allocation, a
/// thread's stack) dies of a signal; it says so in one sentence and exits
/// 70 instead (SQLite's journal takes back any write under way).
enum AddressSpaceLimit {
    /// The limit in bytes, or nil when there is none.
    static let bytes: UInt64? = {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return UInt64(limit.rlim_cur)
    }()

    /// The sentence, made before any signal: a handler may only write it.
    nonisolated(unsafe) private static var message: [UInt8] = []

    static func reportCrashesAsExhaustion() {
        guard let bytes else { return }
        message = Array(("Error: contactsdb stopped under its address-space limit of \(bytes >> 20) MB (ulimit -v), "
                         + "most likely for want of memory; raise the limit and run it again.\n").utf8)
        // Its own stack: a stack that could not grow is one way to get here.
        let size = 1 << 16
        var stack = stack_t(ss_sp: UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16), ss_flags: 0, ss_size: size)
        sigaltstack(&stack, nil)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            AddressSpaceLimit.message.withUnsafeBufferPointer { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
            _exit(70)
        }
        action.sa_flags = Int32(SA_ONSTACK)
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT] { sigaction(signal, &action, nil) }
    }
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
        groupedSubcommands: [
            CommandGroup(name: "Contacts", subcommands: [
                Query.self, Show.self, Add.self, Update.self, Delete.self, Photo.self, Favorite.self, Unfavorite.self,
                Favorites.self, Group.self, Birthdays.self, Duplicates.self, Merge.self, Merges.self, Unmerge.self,
                Trash.self, Restore.self, History.self, PhoneLookup.self, Serve.self,
            ]),
            CommandGroup(name: "Books and sync", subcommands: [
                BookCommand.self, Move.self, Copy.self, Link.self, Unlink.self, RemoteCommand.self, Sync.self,
                Conflicts.self,
            ]),
            CommandGroup(name: "Interchange", subcommands: [
                Import.self, Export.self, Seed.self, EmailAddresses.self, Changes.self, Watch.self,
            ]),
            CommandGroup(name: "Maintenance", subcommands: [
                Init.self, Migrate.self, Doctor.self, Reindex.self, Compact.self, Backup.self, Settings.self,
                Generate.self, Bench.self,
            ]),
        ])

    /// Set once, before the command line is parsed.
    nonisolated(unsafe) static var remoteAccess: (any RemoteAccess)?

    nonisolated(unsafe) static var webServer: (any WebServer)?

    /// What runs a command that reaches the network; in `contactsdb`,
    /// which does not link the network stack, the helper takes over here.
    static func network() throws -> any RemoteAccess {
        guard let remoteAccess else { try Helper.sync.handOver() }
        return remoteAccess
    }

    /// What runs `serve`; in any executable but `contactsdb-serve`, that
    /// helper takes over here.
    static func server() throws -> any WebServer {
        guard let webServer else { try Helper.serve.handOver() }
        return webServer
    }

    /// Runs the command and turns every failure into one sentence on stderr and
    /// its exit code (docs/cli.md, "Exit codes"; ``ExitStatus``).
    static func main() -> Never {
        // A reader closing the pipe early ends the process quietly, as it
        // ends `cat`, even when the parent ignored SIGPIPE.
        signal(SIGPIPE, SIG_DFL)
        let arguments = movingGlobalOptions(Array(CommandLine.arguments.dropFirst()))
        var command: ParsableCommand
        do {
            command = try parseNamedCommand(arguments) ?? parseAsRoot(arguments)
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

    /// The command the arguments name, parsed by itself: a parse from the
    /// root builds the argument sets of the commands on the way (6.5% of a
    /// `query` process's instructions, by callgrind). Nil when that does not
    /// parse to that command (help, a usage error, a command with
    /// subcommands named alone): the root's parse then says so in
    /// ArgumentParser's own words.
    static func parseNamedCommand(_ arguments: [String]) -> ParsableCommand? {
        var command: ParsableCommand.Type = ContactsDBCommand.self
        var rest = arguments[...]
        while let name = rest.first,
              let named = command.subcommand(named: name) {
            command = named
            rest = rest.dropFirst()
        }
        guard command != ContactsDBCommand.self, command.configuration.subcommands.isEmpty,
              let parsed = try? command.parseAsRoot(Array(rest)),
              type(of: parsed) == command else { return nil }
        return parsed
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

extension ParsableCommand {
    /// This command's subcommand called `name`, if it has one.
    static func subcommand(named name: String) -> ParsableCommand.Type? {
        configuration.subcommands.first { $0._commandName == name }
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
    guard ContactsDBCommand.subcommand(named: command) != nil else { return Array(rest) }
    let end = rest.firstIndex(of: "--") ?? rest.endIndex
    return Array(rest[..<end]) + global + Array(rest[end...])
}
