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
        Self.polling { [self] continuation in
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
        }
    }
}

extension ContactStore {
    /// What each commit after this call changed — made through this store,
    /// another store or another process — as ``changes(since:inBooks:)``
    /// lists it, until the stream is dropped or its task cancelled: for a
    /// view that shows many queries at once (a list, a contact's page) and
    /// reads again only what a commit touched. A commit that changes no
    /// contact (a remote's last sync) delivers nothing; a set without
    /// changes says the history was compacted meanwhile, so that anything
    /// may have changed.
    ///
    /// Noticed as ``observe(_:checkingEvery:)`` notices commits: by reading
    /// the change counter every `interval`.
    public func observeChanges(checkingEvery interval: Duration = .milliseconds(50)) -> AsyncThrowingStream<ChangeSet, Error> {
        // Read now, so that a commit right after this call is delivered.
        let start = try? changeToken()
        return Self.polling { [self] continuation in
            var token = try start ?? changeToken()
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                guard try changeToken() != token else { continue }
                let set: ChangeSet
                do {
                    set = try changes(since: token)
                } catch ContactsDBError.expiredChangeToken {
                    // Compacted meanwhile: what changed is unknown, so all may have.
                    token = try changeToken()
                    continuation.yield(ChangeSet(token: token, changes: []))
                    continue
                }
                token = set.token
                if !set.changes.isEmpty { continuation.yield(set) }
            }
        }
    }

    // MARK: - Non public

    /// A stream fed by `body` in a task of its own, which the stream's end
    /// cancels; `body`'s error ends the stream, a cancellation quietly.
    private static func polling<Element: Sendable>(
        _ body: @escaping @Sendable (AsyncThrowingStream<Element, Error>.Continuation) async throws -> Void
    ) -> AsyncThrowingStream<Element, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await body(continuation)
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
