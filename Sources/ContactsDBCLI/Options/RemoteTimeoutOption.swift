import ArgumentParser
import ContactsDB
import Foundation

/// `--timeout`, shared by the commands that talk to a remote.
struct RemoteTimeoutOption: ParsableArguments {
    @Option(name: .customLong("timeout"),
            help: ArgumentHelp("Seconds one request to the server may take; 30 s without a byte also ends it.", valueName: "seconds"))
    var seconds: Double = Remote.defaultTimeout

    func validate() throws {
        guard seconds > 0, seconds.isFinite else { throw ValidationError("Please give --timeout a number of seconds above 0.") }
    }
}
