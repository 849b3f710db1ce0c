/// A request for contacts: filters that all must hold, one sort, and a page.
///
/// Queries are values: each modifier returns a changed copy. Repeated
/// `filter(_:)` calls are ANDed; `sorted(by:descending:)` replaces the sort.
///
/// ```swift
/// let query = ContactQuery()
///     .filter(.has([.telegram, .phone, .email]))
///     .sorted(by: .lastName, descending: true)
///     .page(limit: 50)
/// let contacts = try store.contacts(matching: query)
/// ```
public struct ContactQuery: Hashable, Sendable {
    /// The filters, all of which a contact must meet.
    public private(set) var filters: [ContactFilter] = []
    /// The order; the sectioned order unless sorted otherwise.
    public private(set) var sort = ContactSort()
    /// At most this many contacts; nil for every match.
    public private(set) var limit: Int?
    /// How many matches to skip before the page starts.
    public private(set) var offset = 0
    /// One row per person (SPEC §One person across books: links): a linked
    /// set of contacts is one row, its first card in the default order,
    /// and matches a filter when any of its cards does. A section filter
    /// and the sort are of that first card.
    public private(set) var isUnified = false

    /// Every contact, in the sectioned order.
    public init() {}

    /// This query with one row per person, or per contact again.
    public func unified(_ isUnified: Bool = true) -> ContactQuery {
        var copy = self
        copy.isUnified = isUnified
        return copy
    }

    /// This query with one more filter, ANDed with the others.
    public func filter(_ filter: ContactFilter) -> ContactQuery {
        var copy = self
        copy.filters.append(filter)
        return copy
    }

    /// The books its book filters name, nil when it has none.
    public var bookNames: [String]? {
        let named = filters.flatMap { filter -> [String] in
            guard case .books(let names) = filter else { return [] }
            return names
        }
        return named.isEmpty ? nil : named
    }

    /// This query with its sort replaced.
    public func sorted(by key: ContactSort.Key, descending: Bool = false) -> ContactQuery {
        var copy = self
        copy.sort = ContactSort(key: key, descending: descending)
        return copy
    }

    /// This query with its sort reset to the default sectioned order.
    public func unsorted() -> ContactQuery {
        var copy = self
        copy.sort = ContactSort()
        return copy
    }

    /// This query limited to one page.
    ///
    /// - precondition: `limit` and `offset` are not negative.
    public func page(limit: Int?, offset: Int = 0) -> ContactQuery {
        precondition((limit ?? 0) >= 0 && offset >= 0, "a page cannot have a negative limit or offset")
        var copy = self
        copy.limit = limit
        copy.offset = offset
        return copy
    }
}

/// One condition on a contact (SPEC §Semantics, Queries).
public enum ContactFilter: Hashable, Sendable {
    /// The contact has every one of these attributes.
    case has(ContactAttributes)
    /// Every word of the text is a prefix of a word of the first name, last
    /// name or company, ignoring case and accents (Ё = Е, É = E, Й ≠ И),
    /// or of a search key of the names: their Latin transliteration
    /// (`ivan` finds Иван, `kim` 김) or Hangul initial consonants (`ㅎㄱㄷ`
    /// finds 홍길동). A Cyrillic word also looks for its transliteration
    /// (SPEC §Search as people type).
    case namePrefix(String)
    /// The number's digits occur in one of the contact's normalized phone
    /// numbers; the text is normalized like a stored number first.
    case phone(String)
    /// Every word of the text is a prefix of a word of any text the contact
    /// holds (names, nickname, company, department, title, emails,
    /// addresses, note, URLs, messenger handles, social profiles,
    /// relations) or of the names' search keys, compared as `namePrefix`
    /// compares; a word of three or more digits also matches phone digits
    /// as `phone` does.
    case text(String)
    /// One of the emails contains the text, ignoring case and accents (as
    /// the three below compare too).
    case emailContains(String)
    /// The company contains the text.
    case companyContains(String)
    /// One of the addresses' cities contains the text.
    case cityContains(String)
    /// One of the addresses' countries contains the text.
    case countryContains(String)
    /// The contact files under this section label ("A", "Ж", "ㄱ", "#").
    case section(String)
    /// The contact is a favorite.
    case favorite
    /// The contact belongs to a group with this name (in any case), in
    /// whichever book; an unknown group is an error, not an empty result.
    case group(String)
    /// The contact is in one of these address books (by name, in any
    /// case); an unknown book is an error, not an empty result.
    case books([String])
}

/// A sort key and its direction. The default is the sectioned order:
/// section index, then sortName, then id.
public struct ContactSort: Hashable, Sendable {
    /// What to sort on: `name` is the sectioned order; the others put
    /// contacts lacking the field last and break ties by sortName, then id.
    public enum Key: String, CaseIterable, Sendable {
        /// The sectioned order: section index, then sortName, then id.
        case name
        /// The first name.
        case firstName = "first-name"
        /// The last name.
        case lastName = "last-name"
        /// The company.
        case company
    }

    /// The field sorted on.
    public var key: Key = .name
    /// Whether the order runs backwards; `name` descending is the sectioned
    /// order exactly reversed.
    public var descending = false

    /// A sort by `key`, ascending unless told otherwise.
    public init(key: Key = .name, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }
}

/// One section of the index: its label and how many contacts it holds.
public struct SectionCount: Hashable, Sendable, Codable {
    /// The section's label ("A", "Ж", "#"), as ``Contact/sectionKey`` holds it.
    public var sectionKey: String
    /// How many contacts the section holds.
    public var count: Int
}
