import Foundation

/// The birthdays and anniversaries as an RFC 5545 calendar, which calendar
/// apps subscribe to (docs/cli.md, `birthdays --format ics`):
/// ``ContactStore/birthdayCalendar(inBooks:)``.
public struct BirthdayCalendar: Sendable {
    /// Its events, in the calendar's order.
    package var events: [YearlyEvent]
    /// How many events it holds: one per birthday and per anniversary.
    public var eventCount: Int { events.count }
    /// Dates a card wrote that are not dates (kept as written in the
    /// contact's `extra`), which the calendar leaves out.
    public var leftOut: Int

    /// The calendar, CRLF line ends, folded and escaped, made whole.
    public var text: String {
        ICalendarWriter.calendar(events, name: Self.name)
    }

    /// Gives `output` the calendar's ``text`` a part at a time (its head,
    /// then each event), so that a large one is never held whole.
    public func write(to output: (String) throws -> Void) rethrows {
        try ICalendarWriter.write(events, name: Self.name, to: output)
    }

    /// The calendar's name, which calendar apps show.
    static let name = "Birthdays"

    /// The file name of the feed `serve` offers.
    public static let feedFile = "birthdays.ics"

    /// The feed's path on the web app's server, `/calendar/TOKEN/birthdays.ics`
    /// (``ContactStore/calendarFeedToken()``).
    public static func feedPath(token: String) -> String {
        "/calendar/\(token)/\(feedFile)"
    }
}

extension ContactStore {
    // MARK: - The birthday calendar

    /// The year a date without one starts in: a leap year, so that 29
    /// February has its day.
    static let yearOfUnknownYears = 1972

    /// Every birthday and anniversary of the contacts (of `books`, when
    /// given) as one all-day yearly event each: from its day in the known
    /// year, or in 1972 when the year is unknown; 29 February on the last
    /// day of February. Expanded by a calendar library, it gives the days
    /// ``upcomingDates(from:within:inBooks:)`` lists.
    ///
    /// Each event's `UID` is the contact's id, the kind and the date's
    /// place in `dates`, so that it stays the same across runs; its
    /// `DTSTAMP` is when the contact was last written; `SUMMARY` is the
    /// display name with the year when known (`Anna Müller (1990)`), for
    /// an anniversary with its label (`Anna Müller, wedding (2015)`).
    ///
    /// - parameter books: only the contacts of these books; nil for all.
    /// - throws: ``ContactsDBError`` when a book is unknown.
    public func birthdayCalendar(inBooks books: [String]? = nil) throws -> BirthdayCalendar {
        var rows: [UpcomingDateRows.Row] = []
        var keptLines: [String] = []
        try read { db in
            let books = try books?.map { try BookRecords.existingID(named: $0, db) }
            // Every stored value, whatever its last five characters.
            rows = try UpcomingDateRows.rows(monthDays: "", through: "\u{10FFFF}", inBooks: books, db)
            keptLines = try UpcomingDateRows.keptDateLines(inBooks: books, db)
        }
        var events: [(event: YearlyEvent, row: UpcomingDateRows.Row)] = []
        var leftOut = keptLines.filter(Self.namesDateProperty).count
        for row in rows {
            guard let date = PartialDate(row.value) else { leftOut += 1; continue }
            events.append((Self.event(row, date), row))
        }
        rows = []
        events.sort { a, b in
            let (x, y) = (a.event.start, b.event.start)
            if (x.month, x.day) != (y.month, y.day) { return (x.month, x.day) < (y.month, y.day) }
            if a.row.sortIndex != b.row.sortIndex { return a.row.sortIndex < b.row.sortIndex }
            if a.row.sortKey != b.row.sortKey { return a.row.sortKey.lexicographicallyPrecedes(b.row.sortKey) }
            if a.row.id != b.row.id { return a.row.id < b.row.id }
            return (a.row.label == nil ? -1 : a.row.position) < (b.row.label == nil ? -1 : b.row.position)
        }
        return BirthdayCalendar(events: events.map(\.event), leftOut: leftOut)
    }

    /// The event of one stored date.
    private static func event(_ row: UpcomingDateRows.Row, _ date: PartialDate) -> YearlyEvent {
        let name = row.displayName.isEmpty ? "(no name)" : row.displayName
        let year = date.year.map { " (\($0))" } ?? ""
        let start = PartialDate(year: date.year ?? yearOfUnknownYears, month: date.month, day: date.day)
        guard let label = row.label else {
            return YearlyEvent(uid: row.id + "/birthday", stamp: stamp(row.updatedAt), start: start,
                               summary: name + year, category: "BIRTHDAY")
        }
        // A date without a label of its own is stored as `other`.
        let shown = label == WellKnownLabel.other.rawValue ? "anniversary" : label
        return YearlyEvent(uid: row.id + "/date-\(row.position)", stamp: stamp(row.updatedAt), start: start,
                           summary: name + ", " + shown + year, category: "ANNIVERSARY")
    }

    /// `20261122T091500Z` from a stored `2026-11-22T09:15:00.000Z`.
    private static func stamp(_ stored: String) -> String {
        let digits = stored.prefix(19).filter(\.isNumber)
        guard digits.count == 14 else { return "19700101T000000Z" }
        return String(digits.prefix(8)) + "T" + String(digits.suffix(6)) + "Z"
    }

    /// A kept line of a date property (`BDAY`, `item2.X-ABDATE;…`).
    private static func namesDateProperty(_ line: String) -> Bool {
        let head = line.prefix { $0 != ":" && $0 != ";" }
        let name = head.split(separator: ".").last.map { $0.uppercased() } ?? ""
        return ["BDAY", "ANNIVERSARY", "X-ABDATE"].contains(name)
    }
}
