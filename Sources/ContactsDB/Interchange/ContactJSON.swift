import Foundation

/// One contact of the JSON format (docs/cli.md, "First run and seeding") as
/// read: the keys it holds and their values. Unknown keys are refused, so
/// that a typo is never dropped silently; derived fields are accepted and
/// ignored, so that an export imports again.
public struct ContactJSON: Sendable {
    /// The fields present in the input, applied in ``apply(to:)``.
    private var changes: [Change] = []

    private enum Change: Sendable {
        case id(String?), uid(String?), firstName(String?), lastName(String?), company(String?), age(Int?)
        case phones([Phone]), emails([Email]), addresses([Address]), messengers([Messenger])
        case favorite(Bool), groups([String])
        case kind(ContactKind)
        /// A text of the whole card, by its index in `detailTexts`.
        case text(Int, String?)
        /// A list of the whole card, by its index in ``CardList/all``, as
        /// its entries' texts.
        case cardList(Int, [[String?]])
        case photo(ContactPhoto?)
    }

    /// The optional texts of the whole card, in the order export writes them.
    static let detailTexts = DetailText.all

    static let derivedKeys: Set<String> = [
        "displayName", "sortName", "sectionKey", "sortIndex", "createdAt", "updatedAt", "revision", "hasPhoto", "book",
        "linked",
    ]
    private static let keys = ["id", "uid", "kind", "firstName", "lastName", "company", "age", "favorite", "groups"]
        + detailTexts.map(\.key)
        + CardList.all.map(\.key) + ["photo", "phones", "emails", "addresses", "messengers"]

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
            case .uid(let value): draft.uid = value
            case .firstName(let value): draft.firstName = value
            case .lastName(let value): draft.lastName = value
            case .company(let value): draft.company = value
            case .age(let value): draft.age = value
            case .phones(let value): draft.phones = value
            case .emails(let value): draft.emails = value
            case .addresses(let value): draft.addresses = value
            case .messengers(let value): draft.messengers = value
            case .favorite(let value): draft.isFavorite = value
            case .groups(let value): draft.groups = value
            case .kind(let value): draft.kind = value
            case .text(let index, let value): draft.details[keyPath: Self.detailTexts[index].field] = value
            case .cardList(let index, let rows): CardList.all[index].set(rows, in: &draft.details)
            case .photo(let value): draft.photo = value
            }
        }
    }

    // MARK: - Reading files

    /// One contact, possibly partial (for updates), from a JSON object.
    public static func decode(_ data: Data, source: String) throws -> ContactJSON {
        try data.withUnsafeBytes { raw in
            var reader = JSONReader(bytes: raw.bindMemory(to: UInt8.self), fileName: source)
            let contact = try read(&reader, at: "")
            try reader.expectEnd()
            return contact
        }
    }

    /// The contacts of a JSON file: the import format (an array, or an
    /// object with "contacts"), or one contact object on its own.
    public static func drafts(in data: Data, source: String) throws -> [ContactDraft] {
        var drafts: [ContactDraft] = []
        try forEachContact(in: data, source: source, allowingSingleContact: true) { _, _, contact in
            drafts.append(contact.draft)
        }
        return drafts
    }

    /// Reads a contacts file (an array, or `{"contacts": [...]}`) one contact
    /// at a time and calls `body` with its path (`contacts[3]`), the bytes
    /// read up to its end and the contact.
    package static func forEachContact(
        in data: Data, source: String, allowingSingleContact: Bool = false,
        _ body: (String, Int, ContactJSON) throws -> Void
    ) throws {
        try data.withUnsafeBytes { raw in
            try forEachContact(in: raw.bindMemory(to: UInt8.self), source: source,
                               allowingSingleContact: allowingSingleContact, body)
        }
    }

    package static func forEachContact(
        in bytes: UnsafeBufferPointer<UInt8>, source: String, allowingSingleContact: Bool = false,
        _ body: (String, Int, ContactJSON) throws -> Void
    ) throws {
        var reader = JSONReader(bytes: bytes, fileName: source)
        func readContacts(_ reader: inout JSONReader) throws {
            guard reader.peekKind() == .array else {
                throw reader.syntaxError("expected an array of contacts")
            }
            try reader.readArray { reader, index in
                let path = "contacts[\(index)]"
                let contact = try read(&reader, at: path)
                try body(path, reader.position, contact)
            }
        }
        switch reader.peekKind() {
        case .array:
            try readContacts(&reader)
        case .object:
            if allowingSingleContact, !startsWithContactsKey(reader) {
                let contact = try read(&reader, at: "")
                try body("", reader.position, contact)
                break
            }
            var sawContacts = false
            try reader.readObject { reader, key in
                guard key == "contacts", !sawContacts else {
                    throw reader.syntaxError(sawContacts
                        ? "\"contacts\" is given twice"
                        : "unknown key \"\(key)\"; the top-level object holds only \"contacts\"",
                        at: reader.keyPosition)
                }
                sawContacts = true
                try readContacts(&reader)
            }
            guard sawContacts else { throw reader.syntaxError("the object has no \"contacts\" key") }
        case nil where reader.position >= reader.bytes.count:
            throw reader.syntaxError("the file is empty; expected an array of contacts")
        default:
            throw reader.syntaxError("expected an array of contacts or an object with \"contacts\"")
        }
        try reader.expectEnd()
    }

    // MARK: - Reading one contact

    static func read(_ reader: inout JSONReader, at path: String) throws -> ContactJSON {
        try expect(.object, &reader, path, "expected a contact object here.")
        var contact = ContactJSON()
        try reader.readObject { reader, key in
            if let change = try Self.change(key, &reader, at: path) { contact.changes.append(change) }
        }
        return contact
    }

    /// What the value of a contact's `key` sets, read from `reader`; nil
    /// for a derived key, whose value is skipped.
    private static func change(_ key: String, _ reader: inout JSONReader, at path: String) throws -> Change? {
        // Built only when an error names it.
        func field() -> String { JSONPath.join(path, key) }
        switch key {
        case "id": return .id(try optionalString(&reader, field()))
        case "uid": return .uid(try optionalString(&reader, field()))
        case "firstName": return .firstName(try optionalString(&reader, field()))
        case "lastName": return .lastName(try optionalString(&reader, field()))
        case "company": return .company(try optionalString(&reader, field()))
        case "age": return .age(try optionalAge(&reader, field()))
        case "phones": return .phones(try phones(&reader, field()))
        case "emails": return .emails(try emails(&reader, field()))
        case "addresses": return .addresses(try addresses(&reader, field()))
        case "kind":
            let text = try optionalString(&reader, field()) ?? ContactKind.individual.rawValue
            guard let kind = ContactKind(rawValue: text) else {
                throw invalid(field(), "\"\(text)\" is not a kind; use individual or organization.")
            }
            return .kind(kind)
        case _ where detailTexts.contains(where: { $0.key == key }):
            let index = detailTexts.firstIndex { $0.key == key }!
            return .text(index, try optionalString(&reader, field()))
        case "photo": return .photo(try photo(&reader, field()))
        case "messengers": return .messengers(try messengers(&reader, field()))
        case "favorite":
            if try reader.readNull() { return .favorite(false) }
            try expect(.bool, &reader, field(), "expected true or false here.")
            return .favorite(try reader.readBool())
        case "groups":
            return .groups(try list(&reader, field()) { reader, path in
                try expect(.string, &reader, path(), "expected a group name here.")
                return try reader.readString()
            })
        case _ where derivedKeys.contains(key):
            try reader.skipValue()
            return nil
        case _ where CardList.byKey[key] != nil:
            let index = CardList.all.firstIndex { $0.key == key }!
            return .cardList(index, try entries(of: CardList.all[index], &reader, field()))
        default:
            throw invalid(field(), "unknown key; the keys of a contact are \(keys.joined(separator: ", ")).")
        }
    }

    private static func phones(_ reader: inout JSONReader, _ field: @autoclosure () -> String) throws -> [Phone] {
        try list(&reader, field()) { reader, path in
            var phone = Phone(type: "", value: "")
            try object(&reader, path(), ["type": \.type, "value": \.value], required: ["value"],
                       flags: ["preferred": \.preferred], parameters: \.parameters, ignoring: "e164", into: &phone)
            return phone
        }
    }

    private static func emails(_ reader: inout JSONReader, _ field: @autoclosure () -> String) throws -> [Email] {
        try list(&reader, field()) { reader, path in
            var email = Email(type: "", value: "")
            try object(&reader, path(), ["type": \.type, "value": \.value], required: ["value"],
                       flags: ["preferred": \.preferred], parameters: \.parameters, into: &email)
            return email
        }
    }

    private static func addresses(_ reader: inout JSONReader, _ field: @autoclosure () -> String) throws -> [Address] {
        try list(&reader, field()) { reader, path in
            var address = Address(type: "")
            try object(&reader, path(), [
                "type": \.type, "street1": \.street1, "street2": \.street2, "city": \.city,
                "state": \.state, "zipcode": \.zipcode, "country": \.country, "poBox": \.poBox,
            ], required: [], flags: ["preferred": \.preferred], parameters: \.parameters, into: &address)
            return address
        }
    }

    private static func messengers(_ reader: inout JSONReader, _ field: @autoclosure () -> String) throws -> [Messenger] {
        try list(&reader, field()) { reader, path in
            var messenger = Messenger(service: "", handle: "")
            try object(&reader, path(), ["service": \.service, "handle": \.handle],
                       required: ["service", "handle"], parameters: \.parameters, into: &messenger)
            return messenger
        }
    }

    // MARK: - Non public

    private static func startsWithContactsKey(_ reader: JSONReader) -> Bool {
        var probe = reader
        var first: String?
        try? probe.readObject { _, key in
            first = key
            throw CancellationError()
        }
        return first == "contacts"
    }

    /// Checks that a value of `kind` comes next. Where no value starts at
    /// all, the file is broken (or ends early) there: a syntax error with
    /// its line and column, not a fault of the record.
    private static func expect(
        _ kind: JSONReader.Kind, _ reader: inout JSONReader, _ field: @autoclosure () -> String, _ reason: String
    ) throws {
        switch reader.peekKind() {
        case kind?: return
        case nil: throw reader.missingValueError()
        default: throw invalid(field(), reason)
        }
    }

    private static func optionalString(_ reader: inout JSONReader, _ field: @autoclosure () -> String) throws -> String? {
        if try reader.readNull() { return nil }
        try expect(.string, &reader, field(), "expected a string or null here.")
        return try reader.readString()
    }

    /// JSON numbers may be written 34, 34.0 or 3.4e1; only whole ones fit.
    private static func optionalAge(_ reader: inout JSONReader, _ field: @autoclosure () -> String) throws -> Int? {
        if try reader.readNull() { return nil }
        try expect(.number, &reader, field(), "expected a whole number here.")
        let text = try reader.readNumber()
        if let age = Int(text) { return age }
        guard let number = Double(text), let age = Int(exactly: number) else {
            throw invalid(field(), "\(text) is not a whole number from 0 to 999.")
        }
        return age
    }

    /// `{"mediaType", "data"}` with the bytes in base64, or null.
    private static func photo(_ reader: inout JSONReader, _ field: @autoclosure () -> String) throws -> ContactPhoto? {
        struct Fields { var mediaType = "", data = "" }
        if try reader.readNull() { return nil }
        var fields = Fields()
        try object(&reader, field(), ["mediaType": \.mediaType, "data": \.data], required: ["data"], into: &fields)
        guard let data = Data(base64Encoded: fields.data) else {
            throw invalid("\(field()).data", "expected the photo's bytes in base64 here.")
        }
        return fields.mediaType.isEmpty ? ContactPhoto(data: data) : ContactPhoto(mediaType: fields.mediaType, data: data)
    }

    /// The entries of a card's list: objects of its columns, or plain
    /// texts. A column not given reads as "" (or nil where it may be).
    private static func entries(of list: CardList, _ reader: inout JSONReader, _ field: @autoclosure () -> String) throws -> [[String?]] {
        try Self.list(&reader, field()) { reader, path in
            if let plainText = list.plainText {
                try expect(.string, &reader, path(), "expected \(plainText) here.")
                return [try reader.readString()]
            }
            try expect(.object, &reader, path(), "expected an object here.")
            var texts: [String?] = list.columns.map { $0.rule == .parameters ? nil : "" }
            var given = Array(repeating: false, count: texts.count)
            try reader.readObject { reader, key in
                guard let index = list.columns.firstIndex(where: { $0.name == key }) else {
                    let keys = list.columns.map(\.name).joined(separator: ", ")
                    throw invalid("\(path()).\(key)", "unknown key; the keys here are \(keys).")
                }
                let text = try optionalString(&reader, "\(path()).\(key)")
                texts[index] = list.columns[index].rule == .parameters ? text : text ?? ""
                given[index] = true
            }
            if let missing = list.columns.indices.first(where: { list.columns[$0].isRequired && !given[$0] }) {
                throw invalid("\(path()).\(list.columns[missing].name)", "this key is required.")
            }
            return texts
        }
    }

    private static func list<T>(
        _ reader: inout JSONReader, _ field: @autoclosure () -> String,
        _ element: (inout JSONReader, _ path: () -> String) throws -> T
    ) throws -> [T] {
        if try reader.readNull() { return [] }
        try expect(.array, &reader, field(), "expected an array here.")
        var items: [T] = []
        try withoutActuallyEscaping(field) { field in
            try reader.readArray { reader, index in
                items.append(try element(&reader, { "\(field())[\(index)]" }))
            }
        }
        return items
    }

    /// Reads an object of string fields and boolean `flags` into `value`;
    /// other keys (but `ignoring`) are refused, `null` reads as "" or false.
    private static func object<T>(
        _ reader: inout JSONReader, _ path: @autoclosure () -> String,
        _ fields: KeyValuePairs<String, WritableKeyPath<T, String>>,
        required: [String], flags: KeyValuePairs<String, WritableKeyPath<T, Bool>> = [:],
        parameters: WritableKeyPath<T, String?>? = nil, ignoring: String? = nil, into value: inout T
    ) throws {
        try expect(.object, &reader, path(), "expected an object here.")
        var missing = required
        try reader.readObject { reader, key in
            if let keyPath = fields.first(where: { $0.key == key })?.value {
                value[keyPath: keyPath] = try optionalString(&reader, "\(path()).\(key)") ?? ""
                missing.removeAll { $0 == key }
            } else if let keyPath = flags.first(where: { $0.key == key })?.value {
                if try !reader.readNull() {
                    try expect(.bool, &reader, "\(path()).\(key)", "expected true or false here.")
                    value[keyPath: keyPath] = try reader.readBool()
                }
            } else if key == "parameters", let parameters {
                value[keyPath: parameters] = try optionalString(&reader, "\(path()).\(key)")
            } else if key == ignoring {
                try reader.skipValue()
            } else {
                let keys = fields.map(\.key) + flags.map(\.key) + (parameters == nil ? [] : ["parameters"])
                throw invalid("\(path()).\(key)", "unknown key; the keys here are \(keys.joined(separator: ", ")).")
            }
        }
        if let key = missing.first { throw invalid("\(path()).\(key)", "this key is required.") }
    }

    private static func invalid(_ field: String, _ reason: String) -> ContactsDBError {
        .invalidContact(field: field, reason: reason)
    }
}
