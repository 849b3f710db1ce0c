import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

/// `upcomingDates` against a reference that walks the span day by day and
/// asks of every date of every contact whether it falls that day.
@Suite struct UpcomingDateTests {
    /// Synthetic contacts (40% with a birthday, some yearless), here also
    /// given anniversaries and labelled dates, and contacts made for the
    /// edges: 29 February with and without a year, the turn of the year,
    /// a date in the future, several dates of one contact on one day.
    static let contacts: [Contact] = {
        var random = SplitMix64(seed: 7)
        var drafts = Array(SyntheticContacts(count: 300, seed: 11))
        for index in drafts.indices where random.next() % 4 == 0 {
            let month = Int(random.next() % 12) + 1, day = Int(random.next() % 28) + 1
            let year = random.next() % 3 == 0 ? nil : 1960 + Int(random.next() % 70)
            drafts[index].dates.append(LabeledValue(type: random.next() % 2 == 0 ? "anniversary" : "name day",
                                                    value: PartialDate(year: year, month: month, day: day).text))
        }
        func draft(_ name: String, birthday: String?, dates: [String] = []) -> ContactDraft {
            var draft = ContactDraft(firstName: name, lastName: "Edge")
            draft.birthday = birthday
            draft.dates = dates.map { LabeledValue(type: "anniversary", value: $0) }
            return draft
        }
        drafts += [
            draft("Leap", birthday: "2000-02-29"), draft("Leapless", birthday: "--02-29"),
            draft("Leapwed", birthday: nil, dates: ["1996-02-29"]),
            draft("March", birthday: "1999-03-01"), draft("Feb", birthday: "1999-02-28"),
            draft("Eve", birthday: "1980-12-31", dates: ["--12-31", "2001-01-01"]), draft("Newyear", birthday: "--01-01"),
            draft("Future", birthday: "2027-06-15", dates: ["2030-01-10"]),
            draft("Twice", birthday: "1970-05-05", dates: ["1995-05-05", "--05-05"]),
        ]
        return try! store.add(drafts)
    }()
    static let store = try! ContactStore.makeEmpty()
    /// Each contact's place in the list's default order.
    static let listOrder: [String: Int] = {
        _ = contacts
        return Dictionary(uniqueKeysWithValues: try! store.ids(matching: ContactQuery()).enumerated().map { ($1, $0) })
    }()

    /// The reference: each day of the span, each date that falls on it, in
    /// the list's default order, a contact's birthday before its dates.
    static func expected(from start: PartialDate, within days: Int) -> [String] {
        func fallsOn(_ date: PartialDate, _ day: PartialDate) -> Bool {
            let isLeap = day.year! % 4 == 0 && (day.year! % 100 != 0 || day.year! % 400 == 0)
            return date.month == day.month
                && (date.day == day.day || (date.month == 2 && date.day == 29 && day.day == 28 && !isLeap))
                && (date.year ?? 0) <= day.year!
        }
        let ordered = contacts.sorted { Self.listOrder[$0.id]! < Self.listOrder[$1.id]! }
        var lines: [String] = []
        for offset in 0...days {
            let day = start.adding(days: offset)
            for contact in ordered {
                let dates = (contact.birthday.map { [("birthday", "birthday", $0)] } ?? [])
                    + contact.dates.map { ("anniversary", $0.type, $0.value) }
                for (kind, label, value) in dates {
                    let date = PartialDate(value)!
                    guard fallsOn(date, day) else { continue }
                    lines.append(line(contact.id, kind, label, day.text, date.year.map { day.year! - $0 }))
                }
            }
        }
        return lines
    }

    static func line(_ id: String, _ kind: String, _ label: String, _ date: String, _ age: Int?) -> String {
        "\(date) \(id) \(kind) \(label) \(age.map(String.init) ?? "-")"
    }

    static func found(from start: PartialDate, within days: Int) throws -> [String] {
        _ = contacts
        return try store.upcomingDates(from: start, within: days).map {
            line($0.id, $0.kind.rawValue, $0.label, $0.date.text, $0.age)
        }
    }

    /// Every day of a common year and of a leap year as the first day, with
    /// spans of nothing but that day, a week, the default month, and a year.
    @Test(arguments: [(2027, 0), (2027, 30), (2028, 0), (2028, 7), (2028, 30)])
    func everyFirstDayOfAYearMatchesTheReference(year: Int, days: Int) throws {
        let dayOne = PartialDate(year: year, month: 1, day: 1)
        var nonEmpty = 0
        for offset in 0..<(PartialDate.isLeap(year) ? 366 : 365) {
            let start = dayOne.adding(days: offset)
            let expected = Self.expected(from: start, within: days)
            #expect(try Self.found(from: start, within: days) == expected, "\(start.text) +\(days)")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 100)
    }

    @Test(arguments: [366, 365, 200])
    func longSpansMatchTheReference(days: Int) throws {
        for start in ["2027-11-24", "2028-02-29", "2027-03-01", "2099-12-31"].map({ PartialDate($0)! }) {
            #expect(try Self.found(from: start, within: days) == Self.expected(from: start, within: days))
        }
    }

    @Test func theEdgesFallWhereAnAddressBookShowsThem() throws {
        func names(_ start: String, _ days: Int) throws -> [String] {
            _ = Self.contacts
            return try Self.store.upcomingDates(from: PartialDate(start)!, within: days)
                .filter { $0.displayName.hasSuffix(" Edge") }
                .map { "\($0.date.text) \($0.displayName.dropLast(5)) \($0.age.map(String.init) ?? "-")" }
        }
        // 29 February: on the 28th in a common year, after anyone born then.
        #expect(try names("2027-02-28", 0) == ["2027-02-28 Feb 28", "2027-02-28 Leap 27", "2027-02-28 Leapless -",
                                                 "2027-02-28 Leapwed 31"])
        #expect(try names("2028-02-28", 1) == ["2028-02-28 Feb 29", "2028-02-29 Leap 28", "2028-02-29 Leapless -",
                                                 "2028-02-29 Leapwed 32"])
        #expect(try names("2027-03-01", 0) == ["2027-03-01 March 28"])
        // The turn of the year, and a date not yet reached.
        #expect(try names("2026-12-31", 1) == ["2026-12-31 Eve 46", "2026-12-31 Eve -", "2027-01-01 Eve 26",
                                                 "2027-01-01 Newyear -"])
        #expect(try names("2026-06-15", 0).isEmpty)
        #expect(try names("2027-06-15", 0) == ["2027-06-15 Future 0"])
        #expect(try names("2029-12-31", 30) == ["2029-12-31 Eve 49", "2029-12-31 Eve -", "2030-01-01 Eve 29",
                                                  "2030-01-01 Newyear -", "2030-01-10 Future 0"])
        // 366 days from a day before a 29 February end on that day a year
        // later, and list its dates twice.
        #expect(try names("2027-05-05", 366).filter { $0.contains("Twice") }
                == ["2027-05-05 Twice 57", "2027-05-05 Twice 32", "2027-05-05 Twice -",
                    "2028-05-05 Twice 58", "2028-05-05 Twice 33", "2028-05-05 Twice -"])
    }

    /// Both halves of the statement search their month-and-day index.
    @Test func aSpanIsFoundThroughTheIndexesOnMonthAndDay() throws {
        _ = Self.contacts
        let plan = try Self.store.read { db in try UpcomingDateRows.explain(db) }.joined(separator: "\n")
        #expect(plan.contains("SEARCH contact USING INDEX contact_on_birthdayDay"), "\(plan)")
        #expect(plan.contains("SEARCH contactDate USING INDEX contactDate_on_day"), "\(plan)")
        // Only the books' names, a JSON array, are scanned.
        #expect(!plan.contains("SCAN contact"), "\(plan)")
    }

    @Test func dayNumbersRoundTripAndAgreeWithTheCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for number in stride(from: -150_000, through: 2_900_000, by: 997) {
            let date = PartialDate(dayNumber: number)
            #expect(date.dayNumber == number && PartialDate(date.text) == date, "\(number)")
            if date.year! >= 1600 {
                let day = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))!
                #expect(Int(day.timeIntervalSince1970 / 86_400) == number, "\(date.text)")
            }
        }
        // Stored timestamps count their days the same way.
        for text in ["1970-01-01T00:00:00.000Z", "2000-02-29T23:59:59.999Z", "2026-11-22T09:15:00.000Z"] {
            #expect(Timestamp.string(from: try #require(Timestamp.date(from: text))) == text)
        }
    }
}
