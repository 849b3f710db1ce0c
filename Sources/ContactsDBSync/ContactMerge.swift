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

extension ContactMerge {
    /// Whether `fetched` is `pushed` as a server that rewrites cards keeps
    /// it: the same but for the spelling of what travels verbatim (`extra`
    /// and the parameters kept with a value), whose property, group and
    /// parameter names and values it upper-cases, reorders and unquotes
    /// (DAViCal). Names and parameters are case-insensitive in vCard.
    static func isRespelling(_ fetched: ContactDraft, of pushed: ContactDraft) -> Bool {
        guard let a = respelled(fetched), let b = respelled(pushed) else { return false }
        return a == b
    }

    /// The draft's JSON, respelled, its keys sorted.
    private static func respelled(_ draft: ContactDraft) -> Data? {
        guard var object = (try? JSONSerialization.jsonObject(with: Data(draft.jsonText.utf8))) as? [String: Any] else { return nil }
        for key in ["id", "uid"] { object.removeValue(forKey: key) }
        return try? JSONSerialization.data(withJSONObject: respelling(object), options: .sortedKeys)
    }

    private static func respelling(_ value: Any, key: String? = nil) -> Any {
        switch value {
        case let object as [String: Any]:
            return object.reduce(into: [String: Any]()) { $0[$1.key] = respelling($1.value, key: $1.key) }
        case let lines as [String] where key == "extra":
            return lines.map { respelled(line: $0) }.sorted()
        case let array as [Any]:
            return array.map { respelling($0) }
        case let text as String where key == "parameters":
            return respelled(line: text + ":")
        default:
            return value
        }
    }

    /// A content line with its head (name, group, parameters) upper-cased
    /// and unquoted; the value as it was.
    private static func respelled(line: String) -> String {
        var inQuotes = false
        let colon = line.firstIndex { character in
            if character == "\"" { inQuotes.toggle() }
            return character == ":" && !inQuotes
        } ?? line.endIndex
        return line[..<colon].uppercased().replacingOccurrences(of: "\"", with: "") + line[colon...]
    }
}
