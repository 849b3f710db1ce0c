import ContactsDB
import Foundation

/// The three-way merge of a contact both sides changed since the last
/// sync (SPEC §CardDAV sync): a property changed on one side only takes
/// that side's value; one both changed, to different values, takes the
/// preferred side's, and the other side's version is kept as a conflict.
/// Properties are the JSON format's keys, lists whole (`phones`,
/// `extra`): a list both sides changed is one conflict, never a mix.
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
        for property in Self.properties {
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
        properties.allSatisfy { $0.value(a) == $0.value(b) }
    }

    /// The JSON names of the properties compared and merged.
    static var propertyNames: [String] { properties.map(\.name) }

    // MARK: - Non public

    private struct Property {
        var name: String
        var value: (ContactDraft) -> AnyHashable
        var copy: (ContactDraft, inout ContactDraft) -> Void

        init<T: Hashable>(_ name: String, _ keyPath: WritableKeyPath<ContactDraft, T>) {
            self.name = name
            value = { AnyHashable($0[keyPath: keyPath]) }
            copy = { source, target in target[keyPath: keyPath] = source[keyPath: keyPath] }
        }

        /// A property compared by `key`: groups by name, in any order.
        init<T: Hashable, Key: Hashable>(_ name: String, _ keyPath: WritableKeyPath<ContactDraft, T>,
                                         comparedAs key: @escaping (T) -> Key) {
            self.init(name, keyPath)
            value = { AnyHashable(key($0[keyPath: keyPath])) }
        }
    }

    /// Every field of a draft but its id, by its JSON name; the whole
    /// card's texts as ``DetailText`` declares them.
    nonisolated(unsafe) private static let properties: [Property] = [
        Property("kind", \.details.kind), Property("firstName", \.firstName), Property("lastName", \.lastName),
        Property("company", \.company), Property("age", \.age), Property("favorite", \.isFavorite),
        Property("groups", \.groups, comparedAs: Set.init),
    ] + DetailText.all.map { text in
        let details: WritableKeyPath<ContactDraft, ContactDetails> = \.details
        return Property(text.key, details.appending(path: text.field))
    } + [
        Property("dates", \.details.dates), Property("urls", \.details.urls), Property("relations", \.details.relations),
        Property("socialProfiles", \.details.socialProfiles), Property("extra", \.details.extra),
        Property("photo", \.details.photo), Property("phones", \.phones), Property("emails", \.emails),
        Property("addresses", \.addresses), Property("messengers", \.messengers),
    ]
}
