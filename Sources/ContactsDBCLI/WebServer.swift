import ContactsDB
import Foundation

/// What runs `serve`: the web app's server, which `contactsdb-serve`
/// alone links (``Helper/serve``), as `contactsdb-sync` alone links the
/// network stack.
package protocol WebServer: Sendable {
    /// Serves the web app over `store` on 127.0.0.1 until SIGINT or
    /// SIGTERM, then returns.
    ///
    /// - parameter port: the port; 0 lets the system choose a free one.
    /// - parameter ready: called once, when the server listens, with a
    ///   function that makes an address to open the app by, each with a
    ///   code of its own that opens it once.
    /// - throws: ``CommandLineError/cannotListen(port:reason:)`` when the
    ///   port cannot be had.
    func serve(
        _ store: ContactStore, port: Int, ready: @escaping @Sendable (_ newAddress: @escaping @Sendable () -> String) -> Void
    ) throws
}
