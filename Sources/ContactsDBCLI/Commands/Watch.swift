import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Print a query's result, then again each time a commit from any process changes it.",
            discussion: """
                Takes the filters, sort and page of `query`. Each result is printed whole: in ndjson (the \
                default) one line holding a JSON array of contacts, in json the same array over several \
                lines, in table the table and a blank line (with a BOOK column while the database has \
                several books). A commit that leaves the result as it was prints nothing. --unified watches \
                one row per person, as `query --unified` lists them. Runs until interrupted (SIGINT or \
                SIGTERM), then exits 0.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case ndjson, json, table
        }

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var filters: QueryOptions
        @Option(help: "Output format.") var format: Format = .ndjson
        @Flag(help: "One row per person: contacts linked across books are one row.") var unified = false

        func run() throws {
            let query = try filters.makeQuery()
            let store = try database.openStore()
            let (format, regions) = (format, try store.phoneRegions())
            let outcome = Outcome()
            // The signals are taken before the first result is printed, so
            // one sent as soon as a result shows still ends the run cleanly.
            let cancellation = Cancellation()
            // A parent may start this process with the signals blocked (a
            // thread pool's worker does), which would leave it running
            // deaf to them.
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            [SIGINT, SIGTERM].forEach { sigaddset(&unblocked, $0) }
            pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
            let signals = [SIGINT, SIGTERM].map { number in
                // Handled on a queue, not by a handler that may only set a
                // flag: cancelling the task ends the stream and this run.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { cancellation.cancel() }
                source.resume()
                return source
            }
            cancellation.start(Task {
                do {
                    let results: AsyncThrowingStream<[(json: String, contact: Contact)], Error> = unified
                        ? Self.rows(store.observePeople(query)) { ($0.jsonText, $0.contact) }
                        : Self.rows(store.observe(query)) { ($0.jsonText, $0) }
                    for try await rows in results {
                        // Read each time: a book made while watching brings the column.
                        let showingBooks = try format == .table && store.hasSeveralBooks()
                        Self.print(rows, as: format, regions: regions, showingBooks: showingBooks)
                        // Each result goes out whole and at once, even into
                        // a pipe, where output is otherwise held back.
                        try StandardOutput.finish()
                    }
                } catch {
                    outcome.fail(error)
                }
                outcome.done.signal()
            })
            outcome.done.wait()
            signals.forEach { $0.cancel() }
            if let error = outcome.error { throw error }
        }

        /// Each result's rows as JSON and as the contact a table shows.
        private static func rows<Row: Sendable>(
            _ results: AsyncThrowingStream<[Row], Error>, _ row: @escaping @Sendable (Row) -> (json: String, contact: Contact)
        ) -> AsyncThrowingStream<[(json: String, contact: Contact)], Error> {
            AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        for try await result in results { continuation.yield(result.map(row)) }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }

        private static func print(
            _ rows: [(json: String, contact: Contact)], as format: Format, regions: PhoneRegions, showingBooks: Bool
        ) {
            switch format {
            case .ndjson:
                ContactsDBCLI.print("[" + rows.map(\.json).joined(separator: ", ") + "]")
            case .json:
                ContactPrinter.printJSON(rows.map(\.json), lines: false)
            case .table:
                ContactPrinter.print(rows.map(\.contact), as: .table, regions: regions, showingBooks: showingBooks)
                ContactsDBCLI.print("")
            }
        }
    }
}

/// How the watching task ended, handed to the thread waiting for it.
private final class Outcome: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var failure: Error?

    var error: Error? { lock.withLock { failure } }

    func fail(_ error: Error) { lock.withLock { failure = error } }
}

/// The watching task, cancelled by a signal that may come before it starts.
private final class Cancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, Never>?
    private var isCancelled = false

    func start(_ task: Task<Void, Never>) {
        let cancelled = lock.withLock {
            self.task = task
            return isCancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            isCancelled = true
            return self.task
        }
        task?.cancel()
    }
}
