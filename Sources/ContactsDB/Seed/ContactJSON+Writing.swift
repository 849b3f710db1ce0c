import Foundation

extension Contact {
    /// The contact as one JSON object on one line, in the import format plus
    /// the derived fields and each phone's `e164`. Keys keep a fixed order
    /// so that exports diff cleanly.
    public var jsonText: String { ContactJSONWriter.text(draft, derivedFrom: self) }
}

extension ContactDraft {
    /// The draft as one JSON object on one line, in the import format.
    public var jsonText: String { ContactJSONWriter.text(self, derivedFrom: nil) }
}

enum ContactJSONWriter {
    static func text(_ draft: ContactDraft, derivedFrom contact: Contact?) -> String {
        var json = JSONObjectWriter()
        json.add("id", draft.id)
        json.add("firstName", draft.firstName)
        json.add("lastName", draft.lastName)
        json.add("company", draft.company)
        json.add("age", draft.age)
        json.add("favorite", draft.isFavorite)
        json.add("groups", draft.groups)
        if let contact {
            json.add("displayName", contact.displayName)
            json.add("sortName", contact.sortName)
            json.add("sectionKey", contact.sectionKey)
            json.add("sortIndex", contact.sortIndex)
            json.add("createdAt", Timestamp.string(from: contact.createdAt))
            json.add("updatedAt", Timestamp.string(from: contact.updatedAt))
        }
        json.addArray("phones", draft.phones) { phone in
            var item = JSONObjectWriter()
            item.add("type", phone.type)
            item.add("value", phone.value)
            if let e164 = phone.e164 { item.add("e164", e164) }
            return item
        }
        json.addArray("emails", draft.emails) { email in
            var item = JSONObjectWriter()
            item.add("type", email.type)
            item.add("value", email.value)
            return item
        }
        json.addArray("addresses", draft.addresses) { address in
            var item = JSONObjectWriter()
            item.add("type", address.type)
            item.add("street1", address.street1)
            item.add("street2", address.street2)
            item.add("city", address.city)
            item.add("state", address.state)
            item.add("zipcode", address.zipcode)
            item.add("country", address.country)
            return item
        }
        json.addArray("messengers", draft.messengers) { messenger in
            var item = JSONObjectWriter()
            item.add("service", messenger.service)
            item.add("handle", messenger.handle)
            return item
        }
        return json.text
    }
}

/// Writes one JSON object member by member.
struct JSONObjectWriter {
    private var members: [String] = []

    var text: String { "{" + members.joined(separator: ", ") + "}" }

    mutating func add(_ key: String, _ value: String?) {
        members.append("\(JSONText.quote(key)): \(value.map(JSONText.quote) ?? "null")")
    }

    mutating func add(_ key: String, _ value: Int?) {
        members.append("\(JSONText.quote(key)): \(value.map(String.init) ?? "null")")
    }

    mutating func add(_ key: String, _ value: Bool) {
        members.append("\(JSONText.quote(key)): \(value)")
    }

    mutating func addArray<T>(_ key: String, _ items: [T], _ write: (T) -> JSONObjectWriter) {
        members.append("\(JSONText.quote(key)): [" + items.map { write($0).text }.joined(separator: ", ") + "]")
    }

    mutating func add(_ key: String, _ strings: [String]) {
        members.append("\(JSONText.quote(key)): [" + strings.map(JSONText.quote).joined(separator: ", ") + "]")
    }
}

/// JSON text for values written by hand.
public enum JSONText {
    /// A JSON string literal: quotes, backslashes and control characters
    /// escaped, everything else (UTF-8) as is.
    public static func quote(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += String(format: "\\u%04x", scalar.value)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
