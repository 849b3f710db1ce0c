import Foundation

/// One contact of the JSON format (SPEC §Seed / import / export JSON format)
/// as decoded: the keys it holds and their values. Unknown keys are refused,
/// so that a typo is never dropped silently; derived fields are accepted and
/// ignored, so that an export imports again.
public struct ContactJSON: Decodable, Sendable {
    /// The fields present in the input, applied in ``apply(to:)``.
    private var changes: [Change] = []

    private enum Change: Sendable {
        case id(String?), firstName(String?), lastName(String?), company(String?), age(Int?)
        case phones([Phone]), emails([Email]), addresses([Address]), messengers([Messenger])
    }

    static let derivedKeys: Set<String> = [
        "displayName", "sortName", "sectionKey", "sortIndex", "createdAt", "updatedAt",
    ]

    /// A draft holding just the fields present in the input.
    public var draft: ContactDraft {
        var draft = ContactDraft()
        apply(to: &draft)
        return draft
    }

    /// Replaces the fields of `draft` that the input names; `null` clears.
    public func apply(to draft: inout ContactDraft) {
        for change in changes {
            switch change {
            case .id(let value): draft.id = value
            case .firstName(let value): draft.firstName = value
            case .lastName(let value): draft.lastName = value
            case .company(let value): draft.company = value
            case .age(let value): draft.age = value
            case .phones(let value): draft.phones = value
            case .emails(let value): draft.emails = value
            case .addresses(let value): draft.addresses = value
            case .messengers(let value): draft.messengers = value
            }
        }
    }

    /// One contact, possibly partial (for updates), from a JSON object.
    public static func decode(_ data: Data, source: String) throws -> ContactJSON {
        try JSONElementStream(data: data, fileName: source).checkSyntax()
        return try decode(data, at: "", file: source)
    }

    /// The contacts of a JSON file: the import format (an array, or an
    /// object with "contacts"), or one contact object on its own.
    public static func drafts(in data: Data, source: String) throws -> [ContactDraft] {
        let stream = JSONElementStream(data: data, fileName: source)
        try stream.checkSyntax()
        let top = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        if let object = top as? [String: Any], object["contacts"] == nil {
            return [try decode(data, at: "", file: source).draft]
        }
        var drafts: [ContactDraft] = []
        try stream.forEachElement { index, bytes, _ in
            drafts.append(try decode(bytes, at: "contacts[\(index)]", file: source).draft)
        }
        return drafts
    }

    /// Decodes one contact; `path` prefixes field names in errors.
    static func decode(_ data: Data, at path: String, file: String) throws -> ContactJSON {
        do {
            return try JSONDecoder().decode(ContactJSON.self, from: data)
        } catch let error as ContactsDBError {
            guard case let .invalidContact(field, reason) = error else { throw error }
            throw ContactsDBError.invalidContact(field: JSONPath.join(path, field), reason: reason)
        } catch let error as DecodingError {
            throw ContactsDBError.invalidContact(
                field: JSONPath.join(path, JSONPath.describe(error.codingPath)), reason: error.reason)
        }
    }

    // MARK: - Decodable

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONPath.Key.self)
        try JSONPath.refuseUnknownKeys(
            container, known: ["id", "firstName", "lastName", "company", "age", "phones", "emails",
                               "addresses", "messengers"], ignored: Self.derivedKeys)
        for key in container.allKeys {
            switch key.stringValue {
            case "id": changes.append(.id(try container.decodeIfPresent(String.self, forKey: key)))
            case "firstName": changes.append(.firstName(try container.decodeIfPresent(String.self, forKey: key)))
            case "lastName": changes.append(.lastName(try container.decodeIfPresent(String.self, forKey: key)))
            case "company": changes.append(.company(try container.decodeIfPresent(String.self, forKey: key)))
            case "age": changes.append(.age(try Self.decodeAge(container, key)))
            case "phones":
                let items = try container.decodeIfPresent([PhoneJSON].self, forKey: key) ?? []
                changes.append(.phones(items.map(\.phone)))
            case "emails":
                let items = try container.decodeIfPresent([EmailJSON].self, forKey: key) ?? []
                changes.append(.emails(items.map(\.email)))
            case "addresses":
                let items = try container.decodeIfPresent([AddressJSON].self, forKey: key) ?? []
                changes.append(.addresses(items.map(\.address)))
            case "messengers":
                let items = try container.decodeIfPresent([MessengerJSON].self, forKey: key) ?? []
                changes.append(.messengers(items.map(\.messenger)))
            default:
                continue  // a derived field
            }
        }
    }
}

extension ContactJSON {
    /// JSON numbers may be written 34, 34.0 or 3.4e1; only whole ones fit.
    private static func decodeAge(_ container: KeyedDecodingContainer<JSONPath.Key>, _ key: JSONPath.Key) throws -> Int? {
        guard let number = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard let age = Int(exactly: number) else {
            throw ContactsDBError.invalidContact(
                field: JSONPath.describe(container.codingPath + [key]),
                reason: "\(number) is not a whole number; an age is a whole number from 0 to 999.")
        }
        return age
    }
}

// MARK: - Children

private struct PhoneJSON: Decodable {
    var phone: Phone
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONPath.Key.self)
        try JSONPath.refuseUnknownKeys(container, known: ["type", "value"], ignored: ["e164"])
        phone = Phone(
            type: try container.decodeIfPresent(String.self, forKey: "type") ?? "",
            value: try container.decode(String.self, forKey: "value"))
    }
}

private struct EmailJSON: Decodable {
    var email: Email
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONPath.Key.self)
        try JSONPath.refuseUnknownKeys(container, known: ["type", "value"])
        email = Email(
            type: try container.decodeIfPresent(String.self, forKey: "type") ?? "",
            value: try container.decode(String.self, forKey: "value"))
    }
}

private struct AddressJSON: Decodable {
    static let fields = ["street1", "street2", "city", "state", "zipcode", "country"]
    var address: Address
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONPath.Key.self)
        try JSONPath.refuseUnknownKeys(container, known: Set(["type"] + Self.fields))
        func text(_ key: String) throws -> String {
            try container.decodeIfPresent(String.self, forKey: JSONPath.Key(stringValue: key)) ?? ""
        }
        address = Address(
            type: try text("type"), street1: try text("street1"), street2: try text("street2"),
            city: try text("city"), state: try text("state"), zipcode: try text("zipcode"),
            country: try text("country"))
    }
}

private struct MessengerJSON: Decodable {
    var messenger: Messenger
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONPath.Key.self)
        try JSONPath.refuseUnknownKeys(container, known: ["service", "handle"])
        messenger = Messenger(
            service: try container.decode(String.self, forKey: "service"),
            handle: try container.decode(String.self, forKey: "handle"))
    }
}

// MARK: - Paths

/// JSON paths (`phones[0].value`) for error messages.
enum JSONPath {
    struct Key: CodingKey, ExpressibleByStringLiteral {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init(stringLiteral value: String) { stringValue = value }
        init?(intValue: Int) { nil }
    }

    static func describe(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { key in
            key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
        }.joined()
    }

    /// `contacts[3]` + `.phones[0]`; a relative path alone loses its dot.
    static func join(_ path: String, _ relative: String) -> String {
        path.isEmpty ? String(relative.drop { $0 == "." }) : path + relative
    }

    static func refuseUnknownKeys(
        _ container: KeyedDecodingContainer<Key>, known: Set<String>, ignored: Set<String> = []
    ) throws {
        for key in container.allKeys where !known.contains(key.stringValue) && !ignored.contains(key.stringValue) {
            let suggestion = known.sorted().joined(separator: ", ")
            throw ContactsDBError.invalidContact(
                field: describe(container.codingPath + [key]),
                reason: "unknown key; the keys here are \(suggestion).")
        }
    }
}

extension DecodingError {
    /// One clause saying what was wrong with the value.
    var reason: String {
        switch self {
        case let .typeMismatch(type, _):
            return "expected \(JSONTypeName.of(type)) here."
        case let .valueNotFound(type, _):
            return "expected \(JSONTypeName.of(type)), found null."
        case .keyNotFound:
            return "this key is required."
        case let .dataCorrupted(context):
            return context.debugDescription.hasSuffix(".") ? context.debugDescription : context.debugDescription + "."
        @unknown default:
            return "the value cannot be read."
        }
    }

    var codingPath: [any CodingKey] {
        switch self {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            return context.codingPath
        case let .keyNotFound(key, context):
            return context.codingPath + [key]
        @unknown default:
            return []
        }
    }
}

private enum JSONTypeName {
    static func of(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: return "a whole number"
        case is String.Type: return "a string"
        case is [Any].Type: return "an array"
        default: return "an object"
        }
    }
}
