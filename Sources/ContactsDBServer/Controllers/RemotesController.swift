import ContactsDB
import ContactsDBSync
import Foundation
import Hummingbird

/// The books' remotes: a sync now, as `sync` makes it.
struct RemotesController: Sendable {
    let store: ContactStore

    func addRoutes(to group: RouterGroup<some RequestContext>) {
        group.post("/api/sync", use: sync)
    }

    /// A sync with the remote named `remote`. Not under ``Answer/writes``:
    /// a sync may take minutes, and one killed part-way is safe
    /// (docs/sync.md).
    @Sendable func sync(_ request: Request, context: some RequestContext) async throws -> Response {
        let (store, remote) = (store, request.uri.queryParameters.get("remote") ?? "")
        return try await Answer.json {
            let report = try store.sync(remote: remote)
            return try encode(SyncAnswer(remote: remote, pulled: report.pulled, pushed: report.pushed, conflicts: report.conflicts))
        }
    }
}
