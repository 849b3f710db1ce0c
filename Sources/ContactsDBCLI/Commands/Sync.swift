import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Sync both ways with the remote: pull what changed there, push what changed here.",
            discussion: """
                A property changed on both sides takes the --prefer side's value (the server's unless \
                told otherwise); the other version is kept: see `contactsdb conflicts`. An edit beats a \
                deletion. Exits 69 when the remote cannot be reached or fails, 77 when it refuses the \
                credentials.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case table, json
        }

        @OptionGroup var database: DatabaseOptions
        @Option(help: "Whose value wins a property both sides changed.") var prefer: SyncPreference = .server
        @Flag(help: "Say what would be pulled and pushed; change nothing.") var dryRun = false
        @Option(help: "Output format.") var format: Format = .table
        @OptionGroup var timeout: RemoteTimeoutOption

        struct Output: Encodable {
            var pulled: SyncCounts
            var pushed: SyncCounts
        }

        func run() throws {
            let network = try ContactsDBCommand.network()
            let store = try database.openStore()
            let progress = Terminal.ProgressBar(label: "Syncing")
            let report = try network.sync(store, prefer: prefer, dryRun: dryRun, timeout: timeout.seconds, progress: progress.update)
            progress.finish()
            for skipped in report.skipped { Terminal.printNotice("Not synced: \(skipped)") }
            if report.conflicts > 0 {
                Terminal.printNotice("\(report.conflicts) conflict\(report.conflicts == 1 ? "" : "s") kept the losing version: see `contactsdb conflicts`.")
            }
            switch format {
            case .table:
                print("pulled: \(Self.line(report.pulled))")
                print("pushed: \(Self.line(report.pushed))")
            case .json:
                print(try JSONOutput.line(Output(pulled: report.pulled, pushed: report.pushed)))
            }
        }

        private static func line(_ counts: SyncCounts) -> String {
            "\(counts.new) new, \(counts.changed) changed, \(counts.deleted) deleted"
        }
    }

    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "conflicts",
            abstract: "List the versions that lost a sync conflict; show or dismiss one.",
            subcommands: [List.self, Show.self, Dismiss.self],
            defaultSubcommand: List.self)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case table, json
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List the conflicts kept.")
            @OptionGroup var database: DatabaseOptions
            @Option(help: "Output format.") var format: Format = .table

            func run() throws {
                let conflicts = try database.openStore().conflicts()
                switch format {
                case .table:
                    print(conflicts.isEmpty ? "No conflicts.\n" : ContactPrinter.alignedColumns(
                        [["ID", "CONTACT", "KEPT", "PROPERTIES", "DETECTED"]] + conflicts.map {
                            [String($0.id), $0.contactId, $0.kept.rawValue, Conflicts.properties($0),
                             Timestamp.string(from: $0.detectedAt)]
                        }), terminator: "")
                case .json:
                    var array = JSONOutput.ArrayPrinter()
                    conflicts.forEach { array.append(Conflicts.json($0)) }
                    array.finish()
                }
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "Show one conflict with its losing version, as JSON.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The conflict's id.") var id: Int

            func run() throws {
                print(Conflicts.json(try database.openStore().conflict(id: id)))
            }
        }

        struct Dismiss: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "dismiss", abstract: "Forget a conflict's losing version.")
            @OptionGroup var database: DatabaseOptions
            @Argument(help: "The conflict's id.") var id: Int

            func run() throws {
                try database.openStore().dismissConflict(id: id)
                print("Dismissed the conflict \(id).")
            }
        }

        static func properties(_ conflict: SyncConflict) -> String {
            conflict.properties.isEmpty ? (conflict.kept == .server ? "(deleted here)" : "(deleted on the server)")
                : conflict.properties.joined(separator: ", ")
        }

        /// `{"id", "contactId", "detectedAt", "kept", "properties", "losing"}`:
        /// `losing` is the losing side's whole contact, or null when it was
        /// a deletion.
        static func json(_ conflict: SyncConflict) -> String {
            "{\"id\": \(conflict.id), \"contactId\": \(JSONText.quote(conflict.contactId)), "
                + "\"detectedAt\": \(JSONText.quote(Timestamp.string(from: conflict.detectedAt))), "
                + "\"kept\": \(JSONText.quote(conflict.kept.rawValue)), "
                + "\"properties\": [\(conflict.properties.map(JSONText.quote).joined(separator: ", "))], "
                + "\"losing\": \(conflict.losing?.jsonText ?? "null")}"
        }
    }
}

extension SyncPreference: ExpressibleByArgument {}

/// `--timeout`, shared by the commands that talk to a remote.
struct RemoteTimeoutOption: ParsableArguments {
    @Option(name: .customLong("timeout"),
            help: ArgumentHelp("Seconds one request to the server may take; 30 s without a byte also ends it.", valueName: "seconds"))
    var seconds: Double = Remote.defaultTimeout

    func validate() throws {
        guard seconds > 0, seconds.isFinite else { throw ValidationError("Please give --timeout a number of seconds above 0.") }
    }
}
