import Foundation

extension ContactStore {
    // MARK: - Observing

    /// The result of `query` now, then again after every commit that
    /// changes it — made through this store, another store or another
    /// process — until the stream is dropped or its task cancelled. A
    /// commit that leaves the result as it was delivers nothing.
    ///
    /// ```swift
    /// for try await favorites in store.observe(ContactQuery().filter(.favorite)) {
    ///     show(favorites)
    /// }
    /// ```
    ///
    /// Commits are noticed by reading the database's change counter every
    /// `interval`: one small read, where SQLite offers no notification
    /// across processes (GRDB's observation sees its own connection only).
    ///
    /// - parameter query: the filters, sort and page to watch.
    /// - parameter interval: how often to look for a commit.
    public func observe(
        _ query: ContactQuery, checkingEvery interval: Duration = .milliseconds(50)
    ) -> AsyncThrowingStream<[Contact], Error> {
        observing(every: interval) { try self.contacts(matching: query) }
    }

    /// ``observe(_:checkingEvery:)`` for the unified list: the people that
    /// match `query` (``people(matching:)``), again after every commit
    /// that changes them, a link or an unlink included.
    public func observePeople(
        _ query: ContactQuery, checkingEvery interval: Duration = .milliseconds(50)
    ) -> AsyncThrowingStream<[Person], Error> {
        observing(every: interval) { try self.people(matching: query) }
    }

    private func observing<Value: Equatable & Sendable>(
        every interval: Duration, _ fetch: @escaping @Sendable () throws -> Value
    ) -> AsyncThrowingStream<Value, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var seenRevision: Int?
                    var delivered: Value?
                    while !Task.isCancelled {
                        // Read before the result: a commit between the two
                        // is then seen again next time, never missed.
                        let revision = try read(ChangeLog.revision)
                        if revision != seenRevision {
                            seenRevision = revision
                            let result = try fetch()
                            if result != delivered {
                                delivered = result
                                continuation.yield(result)
                            }
                        }
                        try await Task.sleep(for: interval)
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
