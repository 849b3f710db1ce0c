import Foundation

extension ContactStore {
    // MARK: - Upcoming dates

    /// The birthdays and anniversaries that fall on `start` or on one of
    /// the `days` days after it, in date order (then in the list's order):
    /// 29 February falls on 28 February in other years; a date whose year
    /// is known carries the age reached, and is left out of the years
    /// before its own. A span longer than a year lists a date once a year.
    ///
    /// - parameter start: the first day, with its year.
    /// - parameter days: how many days after `start` to look.
    /// - parameter books: only the contacts of these books; nil for all.
    /// - precondition: `start` has a year and `days` is not negative.
    public func upcomingDates(from start: PartialDate, within days: Int, inBooks books: [String]? = nil) throws -> [UpcomingDate] {
        precondition(start.year != nil && days >= 0, "upcomingDates needs a whole date and a span of days")
        let end = start.adding(days: days)
        var found: [(date: UpcomingDate, row: UpcomingDateRows.Row)] = []
        try read { db in
            let bookIDs = try books?.map { try BookRecords.existingID(named: $0, db) }
            for year in start.year!...end.year! {
                let first = year == start.year ? start : PartialDate(year: year, month: 1, day: 1)
                let last = year == end.year ? end : PartialDate(year: year, month: 12, day: 31)
                // Stored `02-29` sorts after `02-28`, the day it falls on
                // in a year without 29 February.
                let lastMonthDay = Self.monthDay(last) == "02-28" ? "02-29" : Self.monthDay(last)
                for row in try UpcomingDateRows.rows(monthDays: Self.monthDay(first), through: lastMonthDay, inBooks: bookIDs, db) {
                    guard let date = PartialDate(row.value) else { continue }
                    let falling = date.falling(inYear: year)
                    let age = date.year.map { year - $0 }
                    guard falling.dayNumber >= first.dayNumber, falling.dayNumber <= last.dayNumber, (age ?? 0) >= 0
                    else { continue }
                    found.append((UpcomingDate(id: row.id, displayName: row.displayName,
                                               kind: row.label == nil ? .birthday : .anniversary,
                                               label: row.label ?? "birthday", date: falling, age: age), row))
                }
            }
        }
        return found.sorted { a, b in
            if a.date.date != b.date.date { return a.date.date.dayNumber < b.date.date.dayNumber }
            if a.row.sortIndex != b.row.sortIndex { return a.row.sortIndex < b.row.sortIndex }
            if a.row.sortKey != b.row.sortKey { return a.row.sortKey.lexicographicallyPrecedes(b.row.sortKey) }
            if a.row.id != b.row.id { return a.row.id < b.row.id }
            // A contact's birthday first, then its dates in their order.
            return (a.row.label == nil ? -1 : a.row.position) < (b.row.label == nil ? -1 : b.row.position)
        }.map(\.date)
    }

    private static func monthDay(_ date: PartialDate) -> String { String(date.text.suffix(5)) }
}
