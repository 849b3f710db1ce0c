import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Sync both ways with each remote: pull what changed there, push what changed here.",
            discussion: """
                Syncs every remote, or those named, each on its own: one that fails does not stop the \
                others, its error names it, and the exit code is the first failure's. With several remotes \
                each report line starts with the remote's name. A property changed on both sides takes the \
                --prefer side's value (the server's unless told otherwise); the other version is kept: see \
                `contactsdb conflicts`. An edit beats a deletion. Exits 69 when a remote cannot be reached \
                or fails, 77 when it refuses the credentials.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case table, json
        }

        @OptionGroup var database: DatabaseOptions
        @Argument(help: ArgumentHelp("The remotes to sync (default: every one).", valueName: "name")) var names: [String] = []
        @Option(help: "Whose value wins a property both sides changed.") var prefer: SyncPreference = .server
        @Flag(help: "Say what would be pulled and pushed; change nothing.") var dryRun = false
        @Option(help: "Output format.") var format: Format = .table
        @OptionGroup var timeout: RemoteTimeoutOption
        @OptionGroup var threads: WorkerOptions

        struct Output: Encodable {
            var remote: String
            var pulled: SyncCounts
            var pushed: SyncCounts
        }

        func run() throws {
            let network = try ContactsDBCommand.network()
            let store = try database.openStore(threads: threads)
            let remotes = try names.isEmpty ? store.remotes().map(\.name) : names.map { name in
                guard let remote = try store.remote(named: name) else { throw ContactsDBError.remoteNotFound(name: name) }
                return remote.name
            }
            guard !remotes.isEmpty else { throw ContactsDBError.remoteNotFound(name: nil) }
            let prefix = remotes.count > 1
            var firstFailure: ExitStatus?
            for name in remotes {
                let lead = prefix ? "\(name): " : ""
                let report: SyncReport
                do {
                    let progress = Terminal.ProgressBar(label: prefix ? "Syncing \(name)" : "Syncing", counting: "cards")
                    report = try network.sync(store, remote: name, prefer: prefer, dryRun: dryRun, timeout: timeout.seconds,
                                              progress: progress.update)
                    progress.finish()
                } catch {
                    // One remote fails as any command does.
                    guard prefix, !ExitStatus.isArgumentParserError(error) else { throw error }
                    let status = ExitStatus(error)
                    Terminal.printError("\(name): \(status.message)")
                    firstFailure = firstFailure ?? status
                    continue
                }
                for skipped in report.skipped { Terminal.printNotice("\(lead)Not synced: \(Self.oneLine(skipped))") }
                if report.outside.count > 0 { Terminal.printNotice(lead + Self.line(report.outside)) }
                if let change = report.groupsFollowed { Terminal.printNotice(lead + Self.line(change)) }
                for notice in report.notices { Terminal.printNotice(lead + Self.oneLine(notice)) }
                if report.conflicts > 0 {
                    Terminal.printNotice("\(lead)\(report.conflicts) conflict\(report.conflicts == 1 ? "" : "s") kept the losing version: see `contactsdb conflicts`.")
                }
                if report.keptBoth > 0 {
                    Terminal.printNotice("\(lead)\(report.keptBoth) contact\(report.keptBoth == 1 ? "" : "s") changed on both sides kept "
                        + "both versions, the local one as a contact of its own: see `contactsdb duplicates`.")
                }
                switch format {
                case .table:
                    print("\(lead)pulled: \(Self.line(report.pulled))")
                    print("\(lead)pushed: \(Self.line(report.pushed))")
                case .json:
                    print(try JSONOutput.line(Output(remote: name, pulled: report.pulled, pushed: report.pushed)))
                }
            }
            // What was printed goes out before the exit, as for any failure.
            if let firstFailure { throw ExitCode(firstFailure.code) }
        }

        /// One line however many: a server may name any number of them.
        private static func line(_ outside: OutsideHrefs) -> String {
            let named = outside.first.map(oneLine).joined(separator: ", ") + (outside.count > outside.first.count ? ", …" : "")
            let hrefs = outside.count == 1 ? "1 href lies" : "\(outside.count) hrefs lie"
            return "Not synced: \(hrefs) outside the address book \(oneLine(outside.collection)), so never asked for or "
                + "written to (\(named))."
        }

        /// What a server wrote, its control characters escaped, so that an
        /// href holding a line break cannot pass for a line of its own.
        private static func oneLine(_ text: String) -> String {
            text.unicodeScalars.map { $0.properties.generalCategory == .control
                ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
        }

        private static func line(_ change: GroupConventionChange) -> String {
            let held = change.found == .cards ? "group cards" : "CATEGORIES on its cards and no group card"
            return "Groups sync as \(change.found.rawValue), not \(change.named.rawValue) as `remote add --groups` named: "
                + "the address book holds \(held)."
        }

        private static func line(_ counts: SyncCounts) -> String {
            "\(counts.new) new, \(counts.changed) changed, \(counts.deleted) deleted"
        }
    }
}

extension SyncPreference: ExpressibleByArgument {}
