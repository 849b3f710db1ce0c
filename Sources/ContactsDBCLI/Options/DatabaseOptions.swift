import ArgumentParser
import ContactsDB
import Foundation

/// `--db PATH`, and how every command opens the database.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The database file (default: $CONTACTSDB_PATH, else $XDG_DATA_HOME/contactsdb/contacts.sqlite).",
        valueName: "path"))
    var explicitPath: String?

    @Option(name: .customLong("busy-timeout"), help: ArgumentHelp(
        "How long to wait for another process's lock before failing with \"database is busy\" (exit 74).",
        valueName: "milliseconds"))
    var busyTimeout = 5000

    func validate() throws {
        if busyTimeout < 0 { throw ValidationError("Please give --busy-timeout as zero or more milliseconds.") }
    }

    /// `--db`, else `CONTACTSDB_PATH`, else the XDG data directory.
    var path: String { givenPath ?? defaultPath }

    /// The path the user named, by flag or environment; empty counts as unset.
    private var givenPath: String? {
        explicitPath ?? ProcessInfo.processInfo.environment["CONTACTSDB_PATH"].flatMap { $0.isEmpty ? nil : $0 }
    }

    private var defaultPath: String {
        // XDG's rule: $HOME, which may differ from the password database's
        // home (NSHomeDirectory) under sudo, in containers and in tests.
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (home as NSString).appendingPathComponent(".local/share")
        return (dataHome as NSString).appendingPathComponent("contactsdb/contacts.sqlite")
    }

    /// Opens the database (create, migrate, seed once), with `threads`
    /// for a command that takes contacts in. When this open imported the
    /// bundled seed, says so in one line on stderr.
    func openStore(threads: WorkerOptions? = nil) throws -> ContactStore {
        let store = try openStore(seedsOnFirstOpen: true, threads: threads)
        if let backup = store.openReport.backupBeforeMigration {
            Terminal.printNotice("Backed up the database to \(backup) before migrating it.")
        }
        if let count = store.openReport.reindexedContacts {
            Terminal.printNotice("Reindexed \(count) contacts: their sort keys came from another collation version.")
        }
        if let seed = store.openReport.seedImport {
            Terminal.printNotice("Imported the bundled seed (\(seed.contactCount) contacts) into the new database \(store.path).")
        }
        return store
    }

    func openStore(seedsOnFirstOpen: Bool, threads: WorkerOptions? = nil) throws -> ContactStore {
        // Only the default location's directory is created; a mistyped --db
        // directory is an error, not a surprise folder.
        if givenPath == nil {
            try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        var options = ContactStore.Options()
        options.seedsOnFirstOpen = seedsOnFirstOpen
        options.busyTimeout = Double(busyTimeout) / 1000
        threads?.apply(to: &options)
        let store = try ContactStore.open(at: path, options: options)
        if AddressSpaceLimit.bytes != nil { Self.keptOpen.append(store) }
        return store
    }

    /// Under an address-space limit (`ulimit -v`, `prlimit --as`) a store
    /// is never released: releasing it hands its queue back to libdispatch,
    /// which, unable to make a thread there, retries for ever, so a command
    /// that failed for want of memory hung instead of saying so. The exit
    /// closes the database instead (SQLite's journal makes that safe).
    nonisolated(unsafe) private static var keptOpen: [ContactStore] = []
}
