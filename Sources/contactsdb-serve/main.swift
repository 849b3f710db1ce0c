import ContactsDB
import ContactsDBCLI
import ContactsDBServer

/// `contactsdb` with the web app: it runs `serve`, which `contactsdb`
/// hands over, and every other command as `contactsdb` would.
struct Server: WebServer {
    func serve(
        _ store: ContactStore, port: Int, ready: @escaping @Sendable (_ newAddress: @escaping @Sendable () -> String) -> Void
    ) throws {
        do {
            try WebApp(store: store).run(port: port, ready: ready)
        } catch let WebAppError.cannotListen(port, reason) {
            throw CommandLineError.cannotListen(port: port, reason: reason)
        }
    }
}

runContactsDB(remoteAccess: nil, webServer: Server())
