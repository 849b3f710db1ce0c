import ContactsDB
import Dispatch
import Foundation
import Hummingbird
import Logging

/// The web app of `contactsdb serve`: the page, compiled into the binary,
/// and the JSON endpoints it calls, each a thin client of ``ContactStore``
/// with the command line's validation and errors.
///
/// ```swift
/// let app = WebApp(store: try ContactStore.open(at: "contacts.sqlite"))
/// try app.run(port: 0) { newAddress in print(newAddress()) }
/// ```
public struct WebApp: Sendable {
    let store: ContactStore
    /// The app's host name, cookie and one-time codes, new each run.
    let signIn: SignIn

    /// An app over `store`, with a host name and a token of its own.
    public init(store: ContactStore) {
        self.store = store
        signIn = SignIn()
    }

    /// Serves on 127.0.0.1 until SIGINT or SIGTERM, then returns; a write
    /// under way is finished first, and none starts after.
    ///
    /// - parameter port: the port; 0 lets the system choose a free one.
    /// - parameter ready: called once the server listens, with a function
    ///   that makes an address to open the app by: each holds a code of
    ///   its own, good for one use within a minute.
    /// - throws: ``WebAppError/cannotListen(port:reason:)``.
    public func run(port: Int, ready: @escaping @Sendable (_ newAddress: @escaping @Sendable () -> String) -> Void) throws {
        let stopped = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                // Held from here on: no write starts, the last one ended.
                Answer.writes.lock()
                stopped.signal()
            }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        Task {
            do {
                try await serve(port: port, ready: ready)
            } catch {
                outcome.set(error)
            }
            stopped.signal()
        }
        stopped.wait()
        if let error = outcome.error {
            throw WebAppError.cannotListen(port: port, reason: Self.reason(error))
        }
    }

    private func serve(port: Int, ready: @escaping @Sendable (@escaping @Sendable () -> String) -> Void) async throws {
        let bound = Bound()
        let signIn = signIn
        let router = buildRouter(store: store, signIn: signIn, port: { bound.value })
        var logger = Logger(label: "contactsdb-serve")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? port
                bound.set(port)
                ready { signIn.entryAddress(port: port) }
            },
            logger: logger)
        try await app.runService(gracefulShutdownSignals: [])
    }

    /// The system's sentence for a failed bind (`Address already in use`),
    /// from the errno that SwiftNIO's error names.
    private static func reason(_ error: Error) -> String {
        let text = String(describing: error)
        guard let match = text.firstMatch(of: /errno: (\d+)/), let code = CInt(match.1) else { return text }
        return String(cString: strerror(code))
    }
}

/// What can stop the web app from serving.
public enum WebAppError: Error, LocalizedError, Equatable {
    /// The port is taken, or not this user's to take.
    case cannotListen(port: Int, reason: String)

    /// One sentence naming the port and the system's reason.
    public var errorDescription: String? {
        switch self {
        case let .cannotListen(port, reason): "Cannot serve on 127.0.0.1:\(port): \(reason)."
        }
    }
}

/// The port the server got, known once it listens (the guard needs it to
/// check Host and Origin).
final class Bound: @unchecked Sendable {
    private let lock = NSLock()
    private var port = 0

    func set(_ port: Int) { lock.withLock { self.port = port } }
    var value: Int { lock.withLock { port } }
}

private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Error?

    func set(_ error: Error) { lock.withLock { stored = error } }
    var error: Error? { lock.withLock { stored } }
}
