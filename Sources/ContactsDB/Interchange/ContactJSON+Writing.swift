import Foundation

extension Contact {
    /// The contact as one JSON object on one line, in the import format plus
    /// the derived fields and each phone's `e164`. Keys keep a fixed order
    /// so that exports diff cleanly.
    public var jsonText: String { ContactJSONWriter.text(draft, derivedFrom: self) }
}

extension Contact {
    /// ``jsonText`` with `"linked"` last, the ids of the contacts linked
    /// with this one (as `show` lists them) when there are any; an import
    /// skips the key as it skips the other derived ones.
    ///
    /// - parameter linked: the ids, from ``ContactStore/linkedIDs(of:)``.
    public func jsonText(linked: [String]) -> String {
        guard !linked.isEmpty else { return jsonText }
        return jsonText.dropLast() + ", \"linked\": [" + linked.map(JSONText.quote).joined(separator: ", ") + "]}"
    }
}

extension ContactDraft {
    /// The draft as one JSON object on one line, in the import format.
    public var jsonText: String { ContactJSONWriter.text(self, derivedFrom: nil) }
}

enum ContactJSONWriter {

    static func text(_ draft: ContactDraft, derivedFrom contact: Contact?) -> String {
        writer(draft, derivedFrom: contact).text
    }

    /// The draft's keys with their values as JSON, in the order
    /// ``text(_:derivedFrom:)`` writes them; a key a draft leaves out
    /// (an empty list, a text not set) is not there.
    static func fields(_ draft: ContactDraft) -> [(key: String, value: String)] {
        writer(draft, derivedFrom: nil).fields
    }

    private static func writer(_ draft: ContactDraft, derivedFrom contact: Contact?) -> JSONObjectWriter {
        var json = JSONObjectWriter()
        json.add("id", draft.id)
        if let uid = draft.uid { json.add("uid", uid) }
        if draft.kind != .individual { json.add("kind", draft.kind.rawValue) }
        json.add("firstName", draft.firstName)
        json.add("lastName", draft.lastName)
        json.add("company", draft.company)
        json.add("age", draft.age)
        json.add("favorite", draft.isFavorite)
        json.add("groups", draft.groups)
        // The whole card's fields only where they hold something, so that
        // a plain contact reads as it always has.
        for text in ContactJSON.detailTexts {
            if let value = draft.details[keyPath: text.field] { json.add(text.key, value) }
        }
        let details = draft.details
        if details.hasLists {
            for list in CardList.all {
                let rows = list.rows(of: details)
                if rows.isEmpty { continue }
                if list.plainText != nil {
                    json.add(list.key, rows.map { $0[0] ?? "" })
                } else {
                    json.addObjects(list.key, rows) { Array(zip(list.columns.map(\.name), $0)) }
                }
            }
        }
        if let photo = details.photo {
            json.addObject("photo", [("mediaType", photo.mediaType), ("data", photo.data.base64EncodedString())])
        }
        if let contact {
            // Lists read no image bytes, yet say who has a photo.
            if contact.hasPhoto { json.add("hasPhoto", true) }
            json.add("displayName", contact.displayName)
            json.add("sortName", contact.sortName)
            json.add("sectionKey", contact.sectionKey)
            json.add("sortIndex", contact.sortIndex)
            json.add("createdAt", Timestamp.string(from: contact.createdAt))
            json.add("updatedAt", Timestamp.string(from: contact.updatedAt))
            json.add("revision", contact.revision)
            json.add("book", contact.book)
        }
        json.addObjects("phones", draft.phones, flag: \.preferred) {
            [("type", $0.type), ("value", $0.value), ("e164", $0.e164), ("parameters", $0.parameters)]
        }
        json.addObjects("emails", draft.emails, flag: \.preferred) {
            [("type", $0.type), ("value", $0.value), ("parameters", $0.parameters)]
        }
        json.addObjects("addresses", draft.addresses, flag: \.preferred) {
            [("type", $0.type), ("street1", $0.street1), ("street2", $0.street2), ("city", $0.city),
             ("state", $0.state), ("zipcode", $0.zipcode), ("country", $0.country),
             ("poBox", $0.poBox.isEmpty ? nil : $0.poBox), ("parameters", $0.parameters)]
        }
        json.addObjects("messengers", draft.messengers) {
            [("service", $0.service), ("handle", $0.handle), ("parameters", $0.parameters)]
        }
        return json
    }
}

/// Writes one JSON object member by member.
struct JSONObjectWriter {
    /// Each member's key and value as JSON, in order.
    private(set) var fields: [(key: String, value: String)] = []

    var text: String { "{" + fields.map { JSONText.quote($0.key) + ": " + $0.value }.joined(separator: ", ") + "}" }

    mutating func add(_ key: String, _ value: String?) {
        fields.append((key, value.map(JSONText.quote) ?? "null"))
    }

    mutating func add(_ key: String, _ value: Int?) {
        fields.append((key, value.map(String.init) ?? "null"))
    }

    mutating func add(_ key: String, _ value: Bool) {
        fields.append((key, String(value)))
    }

    /// An array of objects of string fields; a nil field is left out
    /// (a phone without an E.164 form has no `e164` key).
    /// `flag` adds `"preferred": true` to the items it holds for.
    mutating func addObjects<T>(
        _ key: String, _ items: [T], flag: KeyPath<T, Bool>? = nil, _ fields: (T) -> [(String, String?)]
    ) {
        let objects = items.map { item in
            var object = Self.object(fields(item))
            if let flag, item[keyPath: flag] { object.add("preferred", true) }
            return object.text
        }
        self.fields.append((key, "[" + objects.joined(separator: ", ") + "]"))
    }

    /// An object of string fields; a nil field is left out.
    mutating func addObject(_ key: String, _ fields: [(String, String?)]) {
        self.fields.append((key, Self.object(fields).text))
    }

    private static func object(_ fields: [(String, String?)]) -> JSONObjectWriter {
        var object = JSONObjectWriter()
        for case let (name, value?) in fields { object.add(name, value) }
        return object
    }

    mutating func add(_ key: String, _ strings: [String]) {
        fields.append((key, "[" + strings.map(JSONText.quote).joined(separator: ", ") + "]"))
    }
}

extension Person {
    /// Its first card's JSON, holding every card's lists, with `"ids"`
    /// first.
    public var jsonText: String {
        "{\"ids\": [" + ids.map(JSONText.quote).joined(separator: ", ") + "], " + contact.jsonText.dropFirst()
    }
}

extension TrashedContact {
    /// `{"id", "name", "book", "deletedAt", "by"}`, as `trash --format json`
    /// and the web app's `/api/trash` write it.
    public var jsonText: String {
        "{\"id\": \(JSONText.quote(id)), \"name\": \(JSONText.quote(name)), \"book\": \(JSONText.quote(book)), "
            + "\"deletedAt\": \(JSONText.quote(Timestamp.string(from: deletedAt))), \"by\": \(JSONText.quote(deletedBy.rawValue))}"
    }
}

extension ContactVersion {
    /// `{"revision", "at", "by", "fields"}`, as `history --format json` and
    /// the web app's `/api/history` write it; `by` is null where no write
    /// recorded it.
    public var jsonText: String {
        "{\"revision\": \(revision), \"at\": \(JSONText.quote(Timestamp.string(from: at))), "
            + "\"by\": \(by.map { JSONText.quote($0.rawValue) } ?? "null"), "
            + "\"fields\": " + JSONText.array(fields, separator: ", ") + "}"
    }
}
