import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve a web app over the database on 127.0.0.1, until interrupted.",
            discussion: """
                Prints an address that opens the app once, within a minute (http://127.0.0.1:PORT/?code=…); \
                the browser is sent on to a host name of the app's own under localhost and kept signed in \
                there by a cookie. Press Enter for a new address. Requests without the cookie, with another \
                Host, or writes from another origin are refused. Runs until SIGINT or SIGTERM, then exits 0; \
                exits 69 when the port cannot be had.

                It also serves the birthday calendar (as `birthdays --format ics` writes it) at \
                http://127.0.0.1:PORT/calendar/FEED-TOKEN/birthdays.ics, optionally with ?book=NAME \
                (repeatable), for a calendar app on this machine to subscribe to: the feed token is kept in \
                the database and opens the feed and nothing else. --feed-url prints that address and exits; \
                --new-feed-token makes a new token (the old one stops working), prints the address and \
                exits. The address names --port, else the port serve last listened on: give --port to \
                keep one address across runs.
                """)

        @OptionGroup var database: DatabaseOptions
        @Option(help: "The port to listen on (default: a free one the system chooses).") var port: Int?
        @Flag(help: "Open the app in the desktop's browser ($BROWSER, else xdg-open).") var open = false
        @Flag(help: "Print the birthday calendar feed's address and exit.") var feedURL = false
        @Flag(help: "Make a new feed token (the old one stops working), print the feed's address and exit.")
        var newFeedToken = false

        func validate() throws {
            if let port, !(1...65535).contains(port) {
                throw ValidationError("Please give --port between 1 and 65535 (got \(port)).")
            }
        }

        func run() throws {
            guard !feedURL && !newFeedToken else { return try printFeedAddress(try database.openStore()) }
            let server = try ContactsDBCommand.server()
            let store = try database.openStore()
            let open = open
            try server.serve(store, port: port ?? 0) { newAddress in
                let address = newAddress()
                if let port = URL(string: address)?.port { try? store.recordWebAppPort(port) }
                Self.offer(address, opening: open)
                Terminal.printNotice("Serving \(store.path) until interrupted (Ctrl-C); press Enter for a new address.")
                // A browser that lost its cookie, or a second one, signs in
                // with a new code: each address opens the app once. Run in a
                // shell's background, a read of the terminal would stop the
                // whole server (SIGTTIN); ignored, the read fails instead.
                signal(SIGTTIN, SIG_IGN)
                Thread.detachNewThread {
                    while readLine() != nil { Self.offer(newAddress(), opening: open) }
                }
            }
        }

        private static func offer(_ address: String, opening open: Bool) {
            print(address)
            try? StandardOutput.finish()
            if open { openInBrowser(address) }
        }

        /// The feed's address, with a new token when asked. It needs no
        /// server: the token and the port are in the database.
        private func printFeedAddress(_ store: ContactStore) throws {
            guard let port = try port ?? store.webAppPort() else {
                throw ValidationError("Please give --port: serve has not listened on this database yet, and the feed's address names the port.")
            }
            let token = newFeedToken ? try store.replaceCalendarFeedToken() : try store.calendarFeedToken()
            print("http://127.0.0.1:\(port)" + BirthdayCalendar.feedPath(token: token))
        }

        /// The desktop's browser, where there is one: `$BROWSER`'s first
        /// command when it is set (as xdg-open and Python's webbrowser read
        /// it), else xdg-open. The address printed serves either way; its
        /// code, in the opener's arguments for any local user to see, opens
        /// the app once.
        private static func openInBrowser(_ address: String) {
            let chosen = ProcessInfo.processInfo.environment["BROWSER"]?.split(separator: ":").first.map(String.init)
            let opener = Process()
            opener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            opener.arguments = [chosen ?? "xdg-open", address]
            do {
                try opener.run()
            } catch {
                Terminal.printNotice("Could not open a browser (\(chosen ?? "xdg-open")); open the address above.")
            }
        }
    }
}
