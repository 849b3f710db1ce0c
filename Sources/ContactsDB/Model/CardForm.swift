/// How a form and a contact's page lay the card out, in the order a person
/// reads it: groups of texts, and lists of entries with their parts. The
/// web app's page builds its form and its contact view from this (it goes
/// out in `/api/info`), so a text declared in ``DetailText`` or a list in
/// ``CardList`` appears there with its captions, and no edit of the page.
///
/// What the page shows its own way (the photo, the groups, the favorite
/// mark, the book) is left out; `CardFormTests` holds the rest to
/// ``ContactField/all``, so a field of the draft cannot be missing here.
package struct CardForm: Encodable, Sendable {
    /// A part of the form that holds texts: the core ones it places, in
    /// order, then the ``DetailText``s of the group in their list's order.
    package enum Group: Sendable, CaseIterable {
        case name, phonetic, work, dates, note

        /// Its heading; nil: its texts stand alone.
        var title: String? {
            switch self {
            case .name: "Name"
            case .phonetic: "Phonetic name"
            case .work: "Work"
            case .dates: "Birthday and age"
            case .note: nil
            }
        }

        /// The texts it places before the rest, by key.
        var placed: [String] {
            switch self {
            case .name: ["kind", "namePrefix", "firstName", "middleName", "lastName", "nameSuffix", "nickname"]
            case .work: ["company"]
            case .dates: ["birthday", "age"]
            case .phonetic, .note: []
            }
        }
    }

    /// One input: its JSON key and caption; `hint` is what the form adds
    /// to the caption about its shape; `choices` make it a choice of
    /// values; `number` sends a whole number as a number; `lines` make
    /// it a text of several lines.
    package struct Field: Encodable, Sendable {
        package var key: String
        package var label: String
        package var hint: String?
        package var choices: [Choice]?
        package var number: Bool?
        package var lines: Int?
    }

    package struct Choice: Encodable, Sendable {
        package var value: String
        package var label: String
    }

    /// A list: its title, one entry's noun, the key that says which kind
    /// of entry each is (`type`, `service`) with the kinds offered, its
    /// parts, and whether an entry may be marked preferred. `lines`: the
    /// entries are plain texts, one per line, with no parts of their own.
    package struct List: Encodable, Sendable {
        package var key: String
        package var title: String
        package var noun: String
        package var kind: String?
        package var kinds: [String]
        package var parts: [Part]
        package var preferred: Bool
        package var lines: Bool
    }

    /// One input of an entry: its JSON key, its caption and its kind of
    /// text (an HTML input type).
    package struct Part: Encodable, Sendable {
        package var key: String
        package var label: String
        package var type: String
    }

    /// A group of texts or a list, as `{"title", "texts"}` or `{"list"}`.
    package enum Section: Encodable, Sendable {
        case texts(title: String?, [Field])
        case list(List)

        private enum CodingKeys: CodingKey { case title, texts, list }

        package func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case let .texts(title, texts):
                try container.encodeIfPresent(title, forKey: .title)
                try container.encode(texts, forKey: .texts)
            case let .list(list): try container.encode(list, forKey: .list)
            }
        }
    }

    package let sections: [Section]

    /// The card: names, work, the core lists, birthday and age, the whole
    /// card's lists (their plain-text ones last), the note.
    package static let card = CardForm(sections:
        [Group.name, .phonetic, .work].map(section) + coreLists.map(Section.list) + [section(.dates)]
            + CardList.all.filter { $0.plainText == nil }.map { .list(List($0)) } + [section(.note)]
            + CardList.all.filter { $0.plainText != nil }.map { .list(List($0)) })

    // MARK: - Non public

    private static func section(_ group: Group) -> Section {
        let details: [Field] = DetailText.all.filter { $0.group == group }.map {
            Field(key: $0.key, label: $0.label, hint: $0.hint, lines: group == .note ? 3 : nil)
        }
        let known = coreTexts + details
        let placed: [Field] = group.placed.compactMap { key in known.first { $0.key == key } }
        return .texts(title: group.title, placed + details.filter { !group.placed.contains($0.key) })
    }

    /// The texts of the draft that are not ``DetailText``s.
    private static let coreTexts = [
        Field(key: "kind", label: "Kind", choices: [
            Choice(value: ContactKind.individual.rawValue, label: "Person"),
            Choice(value: ContactKind.organization.rawValue, label: "Organization"),
        ]),
        Field(key: "firstName", label: "First name"), Field(key: "lastName", label: "Last name"),
        Field(key: "company", label: "Company"), Field(key: "age", label: "Age", number: true),
    ]

    /// The lists of the draft that are not ``CardList``s: each has a
    /// table and a model of its own.
    private static let coreLists = [
        List(key: "phones", title: "Phones", noun: "Phone", kind: "type",
             kinds: ["mobile", "home", "work", "main", "iPhone", "fax", "home fax", "work fax", "pager", "other"],
             parts: [Part(key: "value", label: "Phone", type: "tel")], preferred: true, lines: false),
        List(key: "emails", title: "Emails", noun: "Email", kind: "type", kinds: ["home", "work", "other"],
             parts: [Part(key: "value", label: "Email", type: "email")], preferred: true, lines: false),
        List(key: "addresses", title: "Addresses", noun: "Address", kind: "type", kinds: ["home", "work", "other"],
             parts: [("street1", "Street"), ("street2", "Street, second line"), ("poBox", "PO box"), ("city", "City"),
                     ("state", "State or region"), ("zipcode", "Postcode"), ("country", "Country")]
                .map { Part(key: $0.0, label: $0.1, type: "text") }, preferred: true, lines: false),
        List(key: "messengers", title: "Messengers", noun: "Messenger", kind: "service",
             kinds: MessengerService.allCases.map(\.rawValue), parts: [Part(key: "handle", label: "Handle", type: "text")],
             preferred: false, lines: false),
    ]
}

extension CardForm.List {
    /// A ``CardList`` as its declaration's form and columns say.
    init(_ list: CardList) {
        let parts = list.columns.compactMap { column in
            column.input.map { CardForm.Part(key: column.name, label: $0.label, type: $0.type) }
        }
        self.init(key: list.key, title: list.form.title, noun: list.form.noun, kind: list.form.kind?.column,
                  kinds: list.form.kind?.kinds ?? [], parts: parts, preferred: false, lines: list.plainText != nil)
    }
}
