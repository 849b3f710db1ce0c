import ContactsDB
import Foundation

/// The three-way merge of a contact both sides changed since the last sync
/// (docs/sync.md, "Syncing with a CardDAV server"): a property changed on
/// one side only takes that side's value; one both changed, to different
/// values, takes the preferred side's, and the other side's version is kept
/// as a conflict. Properties are the JSON format's keys, lists whole
/// (`phones`, `extra`): a list both sides changed is one conflict, never a
/// mix.
struct ContactMerge {
    var merged: ContactDraft
    /// The properties both sides changed to different values.
    var conflicting: [String]

    /// - parameter base: the contact as last synced; nil when the two
    ///   sides met without one (a card both made), so that every
    ///   difference counts as both sides' change.
    init(base: ContactDraft?, local: ContactDraft, server: ContactDraft, prefer: SyncPreference) {
        merged = local
        conflicting = []
        for property in ContactField.all {
            let ours = property.value(local), theirs = property.value(server)
            guard ours != theirs else { continue }
            let ancestor = base.map(property.value)
            if ancestor == ours {
                property.copy(server, &merged)
            } else if ancestor == theirs {
                continue
            } else {
                conflicting.append(property.name)
                if prefer == .server { property.copy(server, &merged) }
            }
        }
    }

    /// Whether the two drafts hold the same contact, whatever their ids.
    static func isSame(_ a: ContactDraft, _ b: ContactDraft) -> Bool {
        ContactField.holdSame(a, b)
    }
}
