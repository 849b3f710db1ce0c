import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve a web app over the database on 127.0.0.1, until interrupted.",
            discussion: """
                Prints the one address that opens the app, with a random token that changes each run \
                (http://127.0.0.1:PORT/?token=…); the browser then keeps it as a cookie. Requests without \
                it, with another Host, or writes from another origin are refused. Runs until SIGINT or \
                SIGTERM, then exits 0; exits 69 when the port cannot be had.
                """)

        @OptionGroup var database: DatabaseOptions
        @Option(help: "The port to listen on (default: a free one the system chooses).") var port: Int?
        @Flag(help: "Open the app in the desktop's browser (xdg-open).") var open = false

        func validate() throws {
            if let port, !(1...65535).contains(port) {
                throw ValidationError("Please give --port between 1 and 65535 (got \(port)).")
            }
        }

        func run() throws {
            let server = try ContactsDBCommand.server()
            let store = try database.openStore()
            let open = open
            try server.serve(store, port: port ?? 0) { address in
                print(address)
                try? StandardOutput.finish()
                Terminal.printNotice("Serving \(store.path) until interrupted (Ctrl-C).")
                if open { Self.openInBrowser(address) }
            }
        }

        /// The desktop's browser, where there is one; the address printed
        /// serves either way.
        private static func openInBrowser(_ address: String) {
            let opener = Process()
            opener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            opener.arguments = ["xdg-open", address]
            do {
                try opener.run()
            } catch {
                Terminal.printNotice("Could not open a browser (xdg-open); open the address above.")
            }
        }
    }
}
