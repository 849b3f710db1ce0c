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
    /// One row per person (docs/cli.md, "One person across books: links"): a
    /// linked set of contacts is one row, its first card in the default order,
    /// and matches a filter when any of its cards does. A section filter and
    /// the sort are of that first card.
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
