/// The whole card's lists (dates, URLs, relations, social profiles, extra
/// lines), each declared once: its key (the JSON key, the sync merge's
/// property name, the validator's path), its child table and columns,
/// its CSV columns, its count limit, how each column is checked and how a
/// merge tells its entries apart. Storage, the reader, the validator,
/// JSON, CSV, `doctor` and the merges iterate this list; a list's vCard
/// form is its own, declared by its key in `VCardLists`.
///
/// Each entry is read and written as its columns' texts: the lists are
/// rare in the data a benchmark imports, and each contact pays for them
/// only when ``ContactDetails/hasLists``.
package struct CardList: Sendable {
    /// One column of a list's table, which is also a key of its JSON
    /// objects.
    package struct Column: Sendable {
        /// How the validator checks and tidies the column's text.
        package enum Rule: Sendable, Equatable {
            /// A label: tidied, a well-known one in its canonical spelling,
            /// `default` when empty.
            case label(default: String)
            /// `YYYY-MM-DD` or `--MM-DD`.
            case date
            /// vCard parameters kept as written; nil when empty.
            case parameters
            /// Spaces tidied like a name's; `required` is the reason given
            /// when it is empty (nil: it may be).
            case tidied(required: String?)
            /// Spaces trimmed at both ends.
            case trimmed(required: String?)
            /// A vCard content line, kept as it is.
            case contentLine
        }

        /// The table's column and the JSON key.
        package let name: String
        package let rule: Rule
        /// Whether a JSON object must give it.
        package let isRequired: Bool
        /// This engine's CSV column suffix (`date1Value`) and the part of
        /// a CSV entry (`CSVLayout.Part`) it holds; nil: not in CSV.
        package let csv: (suffix: String, part: String)?
        /// Its input in a form (``CardForm/Part``): its caption and the
        /// kind of text (`text`, `url`); nil for the entry's label and the
        /// parameters, which the form shows otherwise or not at all.
        package let input: (label: String, type: String)?

        package init(_ name: String, _ rule: Rule, required: Bool = false, csv: (suffix: String, part: String)? = nil,
                     input: (label: String, type: String)? = nil) {
            (self.name, self.rule, self.isRequired, self.csv, self.input) = (name, rule, required, csv, input)
        }

        /// A label, `type`, with its CSV column `Type`.
        package static func label(default fallback: String) -> Column {
            Column("type", .label(default: fallback), csv: ("Type", "label"))
        }

        /// The vCard parameters the model does not hold; not in CSV.
        package static let parameters = Column("parameters", .parameters)
    }

    package let key: String
    /// Its child table: `contactPk`, `position`, then ``columns``.
    package let table: String
    /// One entry's name, the prefix of its CSV columns (`date1Type`).
    package let item: String
    package let columns: [Column]
    /// The most entries one contact holds.
    package let limit: Int
    /// What the limit counts where it is not the other lists' (`extra
    /// properties`); nil: entries.
    package let limitNoun: String?
    /// Columns of which an entry needs at least one, and the reason given.
    package let needsOneOf: (columns: [String], reason: String)?
    /// Where the entries are plain texts rather than objects (one column),
    /// what each is (`a vCard content line`).
    package let plainText: String?
    /// How a form and a contact's page show it (``CardForm/List``).
    package let form: Form

    /// A list as a form shows it: its title, one entry's noun, the column
    /// that says which kind of entry each is and the kinds offered for it.
    package struct Form: Sendable {
        package let title: String
        package let noun: String
        package let kind: (column: String, kinds: [String])?

        package init(_ title: String, noun: String, kind: (column: String, kinds: [String])? = nil) {
            (self.title, self.noun, self.kind) = (title, noun, kind)
        }
    }

    /// In the order JSON and CSV write them.
    package static let all: [CardList] = [
        CardList("dates", \.dates, table: "contactDate", item: "date", [
            .label(default: "anniversary"),
            Column("value", .date, required: true, csv: ("Value", "value"), input: ("Date (YYYY-MM-DD, or --MM-DD)", "text")),
            .parameters,
        ], form: Form("Other dates", noun: "Date", kind: ("type", ["anniversary", "other"])),
           identity: { [$0.type, $0.value] }),
        CardList("urls", \.urls, table: "url", item: "url", [
            .label(default: "other"),
            Column("value", .trimmed(required: "a URL cannot be empty."), required: true, csv: ("Value", "value"),
                   input: ("URL", "url")),
            .parameters,
        ], form: Form("Web addresses", noun: "URL", kind: ("type", ["home", "work", "blog", "profile", "other"])),
           identity: { $0.value }),
        CardList("relations", \.relations, table: "relation", item: "relation", [
            .label(default: "other"),
            Column("name", .tidied(required: "a relation needs the related person's name."), required: true,
                   csv: ("Name", "value"), input: ("Name", "text")),
        ], form: Form("Related people", noun: "Related person", kind: ("type", [
            "spouse", "partner", "child", "parent", "mother", "father", "sibling", "friend", "assistant", "manager", "other",
        ])), identity: { [$0.type, $0.name] }),
        CardList("socialProfiles", \.socialProfiles, table: "socialProfile", item: "socialProfile", [
            Column("service", .tidied(required: "a social profile needs its service."), required: true,
                   csv: ("Service", "service")),
            Column("handle", .trimmed(required: nil), csv: ("Handle", "handle"), input: ("Handle", "text")),
            Column("url", .trimmed(required: nil), csv: ("Url", "url"), input: ("Profile URL", "url")),
        ], needsOneOf: (["handle", "url"], "a social profile needs a handle or a URL."),
           form: Form("Social profiles", noun: "Social profile", kind: ("service", [
               "twitter", "facebook", "linkedin", "instagram", "mastodon", "github",
           ])), identity: { [$0.service.lowercased(), $0.handle, $0.url] }),
        CardList("extra", \.extra, table: "extraProperty", item: "extra", [
            Column("line", .contentLine, csv: ("", "value"), input: ("Other card properties (vCard lines, one per line)", "text")),
        ], limit: 1_000, limitNoun: "extra properties", plainText: "a vCard content line",
           form: Form("Other card properties", noun: "Card property"), identity: { $0 }),
    ]

    package static let byKey = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
    package static let byItem = Dictionary(uniqueKeysWithValues: all.map { ($0.item, $0) })

    /// How many entries `details` holds.
    package func count(in details: ContactDetails) -> Int { entries.count(details) }

    /// Each entry's texts, column by column.
    package func rows(of details: ContactDetails) -> [[String?]] { entries.rows(details) }

    /// Replaces the list with entries made of these texts.
    package func set(_ rows: [[String?]], in details: inout ContactDetails) { entries.set(rows, &details) }

    /// Appends one entry made of `text(column)` for each column.
    package func append(to details: inout ContactDetails, _ text: (Int) -> String?) { entries.append(&details, text) }

    /// The list as the sync compares it.
    package func value(of details: ContactDetails) -> AnyHashable { entries.value(details) }

    /// Sets the list of `target` to that of `source`.
    package func copy(from source: ContactDetails, to target: inout ContactDetails) { entries.copy(source, &target) }

    /// Gives `survivor` the entries of `other` whose identity it holds
    /// none of, in their order.
    package func join(_ other: ContactDetails, into survivor: inout ContactDetails) { entries.join(other, &survivor) }

    // MARK: - Non public

    private let entries: any Entries

    private init<Entry: CardListEntry, Key: Hashable & Sendable>(
        _ key: String, _ path: WritableKeyPath<ContactDetails, [Entry]>, table: String, item: String, _ columns: [Column],
        limit: Int = 100, limitNoun: String? = nil, needsOneOf: (columns: [String], reason: String)? = nil,
        plainText: String? = nil, form: Form, identity: @escaping @Sendable (Entry) -> Key
    ) {
        (self.key, self.table, self.item, self.columns) = (key, table, item, columns)
        (self.limit, self.limitNoun, self.needsOneOf, self.plainText) = (limit, limitNoun, needsOneOf, plainText)
        self.form = form
        entries = TypedEntries(path: path, identity: identity)
    }

    /// The list's entries of one type, reached through the details.
    private protocol Entries: Sendable {
        func count(_ details: ContactDetails) -> Int
        func rows(_ details: ContactDetails) -> [[String?]]
        func set(_ rows: [[String?]], _ details: inout ContactDetails)
        func append(_ details: inout ContactDetails, _ text: (Int) -> String?)
        func value(_ details: ContactDetails) -> AnyHashable
        func copy(_ source: ContactDetails, _ target: inout ContactDetails)
        func join(_ other: ContactDetails, _ survivor: inout ContactDetails)
    }

    private struct TypedEntries<Entry: CardListEntry, Key: Hashable & Sendable>: Entries {
        // Key paths are immutable values; only their type is not marked Sendable.
        nonisolated(unsafe) let path: WritableKeyPath<ContactDetails, [Entry]>
        let identity: @Sendable (Entry) -> Key

        func count(_ details: ContactDetails) -> Int { details[keyPath: path].count }
        func rows(_ details: ContactDetails) -> [[String?]] { details[keyPath: path].map(\.texts) }
        func set(_ rows: [[String?]], _ details: inout ContactDetails) {
            details[keyPath: path] = rows.map { row in Entry(texts: { row[$0] }) }
        }
        func append(_ details: inout ContactDetails, _ text: (Int) -> String?) {
            details[keyPath: path].append(Entry(texts: text))
        }
        func value(_ details: ContactDetails) -> AnyHashable { AnyHashable(details[keyPath: path]) }
        func copy(_ source: ContactDetails, _ target: inout ContactDetails) {
            target[keyPath: path] = source[keyPath: path]
        }
        func join(_ other: ContactDetails, _ survivor: inout ContactDetails) {
            var seen = Set(survivor[keyPath: path].map(identity))
            survivor[keyPath: path] += other[keyPath: path].filter { seen.insert(identity($0)).inserted }
        }
    }
}

/// One entry of a ``CardList``, as the texts of its list's columns.
package protocol CardListEntry: Hashable, Sendable {
    /// Its texts, one per column, in order.
    var texts: [String?] { get }
    /// An entry of `text(column)` for each column; a column read as nil
    /// (NULL, a key not given) is empty, or nil where it may be.
    init(texts text: (Int) -> String?)
}

extension LabeledValue: CardListEntry {
    package var texts: [String?] { [type, value, parameters] }
    package init(texts text: (Int) -> String?) { self.init(type: text(0) ?? "", value: text(1) ?? "", parameters: text(2)) }
}

extension Relation: CardListEntry {
    package var texts: [String?] { [type, name] }
    package init(texts text: (Int) -> String?) { self.init(type: text(0) ?? "", name: text(1) ?? "") }
}

extension SocialProfile: CardListEntry {
    package var texts: [String?] { [service, handle, url] }
    package init(texts text: (Int) -> String?) { self.init(service: text(0) ?? "", handle: text(1) ?? "", url: text(2) ?? "") }
}

extension String: CardListEntry {
    package var texts: [String?] { [self] }
    package init(texts text: (Int) -> String?) { self = text(0) ?? "" }
}
