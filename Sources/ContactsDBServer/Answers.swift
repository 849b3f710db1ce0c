import ContactsDB
import Foundation
import Hummingbird

// The shapes of the endpoints' JSON. A remote's answer holds its name,
// address and last sync only: how it signs in never reaches the page.

struct InfoAnswer: Encodable {
    var regions: [String]
    var books: [BookAnswer]
    var groups: [ContactGroup]
    var remotes: [RemoteAnswer]
    var attributes: [String]
    var sorts: [String]
    /// The services typed input takes.
    var messengers: [String]
    /// The most bytes a photo may have: the page sends one byte more of a
    /// larger file, as `photo set` reads stdin, so that the store refuses it.
    var photoBytes: Int
    /// The birthday calendar feed's path, its token in it, for the page
    /// to show as an address to subscribe to.
    var feedPath: String
    /// How many days the trash keeps a deleted contact: 0 keeps nothing,
    /// and a delete cannot be undone.
    var trashDays: Int
    /// The card's texts and lists as the form and the contact's page
    /// show them.
    var card = CardForm.card
}

struct BookAnswer: Encodable {
    var name: String
    var count: Int
    var isDefault: Bool
}

struct RemoteAnswer: Encodable {
    var name: String
    var url: String
    var lastSyncedAt: String?
}

struct ListAnswer: Encodable {
    var total: Int?
    var sections: [SectionCount]?
    var offset: Int
    var contacts: [ListItem]
}

struct ListItem: Encodable {
    var id: String
    var name: String
    var section: String
    var phone: String?
    var email: String?
    var photo: Bool
    var favorite: Bool
    var revision: Int
}

struct DuplicateAnswer: Encodable {
    var ids: [String]
    var names: [String]
    var confidence: String
    var reasons: [String]
    /// `merge`, or `link` for a set whose contacts are all in different
    /// books (a merge would delete a card from another account).
    var action: String
}

/// The contacts a merge or a link takes.
struct IDsRequest: Decodable {
    var ids: [String]
}

struct MergeAnswer: Encodable {
    var mergeID: Int?
    var id: String
    var merged: [String]

    init(_ result: MergeResult) {
        (mergeID, id, merged) = (result.mergeID, result.contact.id, result.merged)
    }
}

struct MergeRecordAnswer: Encodable {
    var id: Int
    var into: String
    var merged: [String]
    var at: String
}

struct UnmergeAnswer: Encodable {
    var restored: [String]
    var survivor: String
}

struct SyncAnswer: Encodable {
    var remote: String
    var pulled: SyncCounts
    var pushed: SyncCounts
    var conflicts: Int
}

/// A request the endpoints cannot read (a filter that is no filter).
struct RequestError: Error, LocalizedError {
    var sentence: String
    init(_ sentence: String) { self.sentence = sentence }
    var errorDescription: String? { sentence }
}

/// A failure as the page shows it: the store's sentence, the field it
/// names (`phones[0].value`) so the form can put it there, and the HTTP
/// status that says what kind of failure it was.
struct ErrorAnswer: Encodable {
    var error: String
    var field: String?
    var status: HTTPResponse.Status

    enum CodingKeys: CodingKey { case error, field }

    init(_ error: Error) {
        self.error = (error as? LocalizedError)?.errorDescription ?? "Unexpected failure: \(error)."
        switch error {
        case let error as ContactsDBError:
            status = Self.status(error)
            switch error {
            case let .invalidContact(field, _), let .duplicateContactID(field, _): self.field = field
            case .invalidPhoto: field = "photo"
            case .invalidBook: field = "book"
            default: break
            }
        case is RequestError, is DecodingError: status = .badRequest
        case let error as HTTPError: status = error.status
        default: status = .internalServerError
        }
    }

    /// The one place a store's error meets an HTTP status.
    static func status(_ error: ContactsDBError) -> HTTPResponse.Status {
        switch error {
        case .invalidContact, .invalidPhoto, .malformedJSON, .duplicateContactID, .contactExists, .groupExists:
            return .unprocessableContent
        case .contactsNotFound, .photoNotFound, .groupNotFound, .remoteNotFound, .conflictNotFound, .mergeNotFound,
             .notInTrash, .revisionNotInHistory:
            return .notFound
        case .revisionConflict, .mergedContactExists, .restoredIDInUse: return .conflict
        case .invalidBook, .invalidRemote, .ambiguousGroup, .tooFewToMerge, .tooFewToLink, .linkWithinBook,
             .mergeAcrossBooks, .foreignChangeToken, .expiredChangeToken:
            return .badRequest
        case .remoteUnavailable, .remoteAnswerUnreadable, .remoteRefusedCredentials: return .badGateway
        case .databaseBusy, .syncRunning, .databaseUnavailable: return .serviceUnavailable
        default: return .internalServerError
        }
    }
}

/// The filters and sort of a list request, named as `query`'s options.
struct ListQuery {
    var query = ContactQuery()

    init(_ parameters: Parameters) throws {
        let has = (parameters.get("has") ?? "").split(separator: ",").map(String.init)
        var attributes = ContactAttributes()
        for name in has {
            guard let entry = ContactAttributes.named.first(where: { $0.name == name }) else {
                throw RequestError("There is no filter \"\(name)\"; the filters are \(ContactAttributes.named.map(\.name).joined(separator: ", ")).")
            }
            attributes.formUnion(entry.attribute)
        }
        if !attributes.isEmpty { query = query.filter(.has(attributes)) }
        // As the search field is typed: words of letters or digits, or none.
        if let text = parameters.get("text"), text.contains(where: { $0.isLetter || $0.isNumber }) {
            query = query.filter(.text(text))
        }
        if parameters.get("favorite") == "1" { query = query.filter(.favorite) }
        if let group = parameters.get("group"), !group.isEmpty { query = query.filter(.group(group)) }
        if let book = parameters.get("book"), !book.isEmpty { query = query.filter(.books([book])) }
        let sort = parameters.get("sort") ?? "name"
        guard let key = ContactSort.Key(rawValue: sort) else {
            throw RequestError("There is no sort \"\(sort)\"; the sorts are \(ContactSort.Key.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        query = query.sorted(by: key, descending: parameters.get("desc") == "1")
    }
}
