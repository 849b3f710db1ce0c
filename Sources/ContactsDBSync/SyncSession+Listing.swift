import ContactsDB
import Foundation

/// Listing: which cards the address book holds, and which changed or went
/// since the stored sync-token.
extension SyncSession {
    /// The members changed since `token` (sync-collection), or all of them:
    /// a PROPFIND of their ETags, with the collection's sync-token taken
    /// first where it keeps one (a listing from scratch by sync-collection
    /// costs a server more: Radicale answers 10,000 cards in 1.9 s that
    /// way and in 1.15 s by PROPFIND); a change after that token is listed
    /// again at the next sync, and a card fetched twice is stored once.
    ///
    /// An answer to `token` that may list every card rather than the
    /// changes (``CardListing/mayListEverything(since:known:)``: DAViCal
    /// answers a token it forgot so) is checked by a PROPFIND, as a first
    /// sync lists: a card `known` here that the server lacks is removed.
    func list(since token: String?, known: Set<String> = []) throws -> CardListing {
        if let token, let listing = try syncCollection(since: token) {
            guard listing.mayListEverything(since: token, known: known) else { return listing }
            var whole = try propfindListing()
            whole.token = listing.token
            return whole
        }
        if let start = try collectionSyncToken() {
            var listing = try propfindListing()
            listing.token = start
            return listing
        }
        if let listing = try syncCollection(since: nil) { return listing }
        return try propfindListing()
    }

    /// The collection's `DAV:sync-token` property (RFC 6578 §4), or nil.
    private func collectionSyncToken() throws -> String? {
        let answer = try client.send("PROPFIND", collection, headers: [("Depth", "0")], body: DAVXML.propfind(["d:sync-token"]))
        guard answer.status == 207 else { return nil }
        // Only a shortcut: an answer that cannot be read lists as before.
        let token = (try? DAVXML.multistatus(answer.body, from: answer.url))?.responses.lazy
            .compactMap { $0.property("sync-token")?.trimmedText }.first
        return token?.isEmpty == false ? token : nil
    }

    /// Every member with its ETag, by PROPFIND.
    private func propfindListing() throws -> CardListing {
        let answer = try client.send("PROPFIND", collection, headers: [("Depth", "1")],
                                     body: DAVXML.propfind(["d:getetag", "d:resourcetype"]))
        guard answer.status == 207 else { throw Self.unexpected(answer, doing: "listing the address book") }
        var listing = CardListing(isComplete: true)
        for response in try DAVXML.multistatus(answer.body, from: answer.url).responses {
            guard let href = path(response.href), href != collection.path, href + "/" != collection.path,
                  response.property("resourcetype")?.child("collection") == nil
            else { continue }
            listing.members.append((href, response.property("getetag")?.trimmedText))
        }
        return listing
    }

    /// nil when the server keeps no sync-token, or refuses this one.
    private func syncCollection(since token: String?) throws -> CardListing? {
        var parts: [CardListing] = [], next = token
        // A server may answer in parts (507 on the collection itself); one
        // href in two parts speaks as the later one (``CardListing/joining(_:isComplete:token:)``).
        for _ in 0..<10_000 {
            let answer = try client.send("REPORT", collection, headers: [("Depth", "1")],
                                         body: DAVXML.syncCollection(token: next))
            guard answer.status == 207 else { return nil }
            let status = try DAVXML.multistatus(answer.body, from: answer.url)
            guard let given = status.syncToken, !given.isEmpty else { return nil }
            var part = CardListing(), isTruncated = false
            for response in status.responses {
                guard let href = path(response.href) else { continue }
                if href == collection.path || href + "/" == collection.path {
                    isTruncated = isTruncated || response.status == 507
                } else if response.status == 404 {
                    part.removed.append(href)
                } else {
                    part.members.append((href, response.property("getetag")?.trimmedText))
                }
            }
            parts.append(part)
            // A server that says it holds more but gives no new token
            // would keep this loop going.
            let isSame = given == next
            next = given
            guard isTruncated, !isSame else { break }
        }
        return CardListing.joining(parts, isComplete: token == nil, token: next)
    }
}
