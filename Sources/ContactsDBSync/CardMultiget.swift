import ContactsDB
import Foundation

/// The fetching of a pull: cards asked for by addressbook-multiget
/// (RFC 6352 §8.7), a batch of hrefs at a time. The stages a batch goes
/// through, each a name of its own: started (``DAVClient/Pending``),
/// answered (``MultigetAnswer``), read (``ReadBatch`` of
/// ``PulledCard``s), then written by the session.
struct CardMultiget: Sendable {
    let client: DAVClient
    let collection: URL
    /// The version asked for: 4.0 where the address book lists it (a
    /// server that converts gives a 4.0 card back whole only as 4.0), else
    /// nil, the server's own.
    let version: VCardVersion?

    init(client: DAVClient, collection: URL, version: VCardVersion) {
        (self.client, self.collection) = (client, collection)
        self.version = version == .v4 ? .v4 : nil
    }

    /// Sends the request for the cards at `hrefs`, not waiting for it.
    func start(_ hrefs: [String]) -> DAVClient.Pending {
        client.start("REPORT", collection, headers: [("Depth", "1")],
                     body: DAVXML.multiget(hrefs.map(SyncSession.encodedPath), version: version))
    }

    /// The answer for `batch`, started as `pending`. A batch whose answer
    /// cannot be read (a note past any limit, bytes that are not UTF-8) is
    /// asked for card by card, so that one such card does not stop the
    /// others.
    func answer(_ batch: [String], _ pending: DAVClient.Pending) throws -> MultigetAnswer {
        do {
            let response = try client.wait(pending)
            var answer = try MultigetAnswer(response, collection: collection)
            answer.deadline = response.deadline
            return answer
        } catch ContactsDBError.remoteAnswerUnreadable where batch.count > 1 {
            var answer = MultigetAnswer()
            for href in batch {
                do {
                    let one = try MultigetAnswer(try client.wait(start([href])), collection: collection)
                    answer.cards += one.cards
                    answer.gone.formUnion(one.gone)
                } catch ContactsDBError.remoteAnswerUnreadable(_, let reason) {
                    answer.unreadable[href] = reason
                }
            }
            return answer
        }
    }
}

/// A batch's cards as the server answered them, not yet read: sent, gone
/// (404, 410), or in an answer that could not be read, with why.
struct MultigetAnswer: Sendable {
    /// A card's bytes as sent, at its href, with its ETag.
    struct Card: Sendable {
        var href: String
        var etag: String?
        var data: Data
    }

    var cards: [Card] = []
    var gone: Set<String> = []
    var unreadable: [String: String] = [:]
    /// By when its cards must be read (``DAVResponse/deadline``).
    var deadline: (date: Date, timeout: TimeInterval)?
    /// The limit, when reading its cards went past it.
    var overrun: TimeInterval?

    init() {}

    /// An addressbook-multiget's cards by href, with their ETags, and the
    /// hrefs it says are gone; hrefs outside `collection` are passed over.
    init(_ response: DAVResponse, collection: URL) throws {
        guard response.status == 207 else { throw SyncSession.unexpected(response, doing: "fetching cards") }
        for item in try DAVXML.multistatus(response.body, from: response.url).responses {
            guard let href = SyncSession.path(item.href, in: collection) else { continue }
            if let data = item.property("address-data")?.text {
                cards.append(Card(href: href, etag: item.property("getetag")?.trimmedText, data: Data(data.utf8)))
            } else if [404, 410].contains(item.status) {
                gone.insert(href)
            }
        }
    }
}

/// A card as a pull fetched and read it: its ETag, and its draft with its
/// derived fields or why it cannot be read.
struct PulledCard: Sendable {
    var etag: String?
    var read: Result<ImportedCard.Read, ContactsDBError>
}

/// A batch of hrefs, what the server answered for them, and their cards
/// read: what the session writes in one go.
struct ReadBatch: Sendable {
    var hrefs: [String]
    /// The answer with its cards' bytes dropped: only what is gone or
    /// unreadable, and whether reading overran, are kept.
    var answer: MultigetAnswer
    var cards: [String: PulledCard] = [:]

    /// Reads the cards as `import` reads them, validated and derived.
    /// Past the answer's deadline it stops, saying so in its `overrun`:
    /// `--timeout` bounds the work on an answer, not only the wait for it.
    init(hrefs: [String], answer: MultigetAnswer, regions: PhoneRegions) {
        (self.hrefs, self.answer) = (hrefs, answer)
        self.answer.cards = []
        for card in answer.cards {
            if let deadline = answer.deadline, Date() > deadline.date {
                self.answer.overrun = deadline.timeout
                break
            }
            cards[card.href] = PulledCard(etag: card.etag, read: Result {
                try ImportedCard.read(vCard: card.data, source: card.href, regions: regions)
            }.mapError { $0 as? ContactsDBError ?? .invalidContact(field: card.href, reason: "\($0)") })
        }
    }
}
