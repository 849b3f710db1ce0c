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
