import Foundation

/// A calendar date whose year may be unknown: `YYYY-MM-DD` or `--MM-DD`, as
/// birthdays and anniversaries are kept (docs/vcard.md, "vCard and CSV").
public struct PartialDate: Hashable, Sendable {
    /// The year, nil when unknown.
    public var year: Int?
    /// The month, 1…12.
    public var month: Int
    /// The day of the month, 1…31.
    public var day: Int

    /// Reads `YYYY-MM-DD` or `--MM-DD`; nil for anything else, or a day the
    /// calendar lacks (29 February is a day of a year unknown).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        switch bytes.count {
        case 10 where bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-"):
            guard let year = number(0..<4), year > 0 else { return nil }
            self.year = year
        case 7 where bytes[0] == UInt8(ascii: "-") && bytes[1] == UInt8(ascii: "-") && bytes[4] == UInt8(ascii: "-"):
            year = nil
        default:
            return nil
        }
        let offset = bytes.count - 5
        guard let month = number(offset..<offset + 2), let day = number(offset + 3..<offset + 5),
              (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, year: year) else { return nil }
        self.month = month
        self.day = day
    }

    /// A date from its parts, unchecked.
    public init(year: Int?, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Today in the time zone where this process runs.
    public static func today() -> PartialDate {
        let today = Calendar.current.dateComponents([.year, .month, .day], from: Date())
        return PartialDate(year: today.year!, month: today.month!, day: today.day!)
    }

    /// `YYYY-MM-DD`, or `--MM-DD` without a year.
    public var text: String {
        let monthDay = Self.twoDigits(month) + "-" + Self.twoDigits(day)
        guard let year else { return "--" + monthDay }
        return String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year) + "-" + monthDay
    }

    /// The day this date falls on in `year`: itself, or 28 February for
    /// 29 February in a year without one.
    public func falling(inYear year: Int) -> PartialDate {
        PartialDate(year: year, month: month, day: min(day, Self.days(inMonth: month, year: year)))
    }

    /// The date `days` days after this one, which has a year (proleptic
    /// Gregorian; Foundation's calendar turns Julian before 1582).
    public func adding(days: Int) -> PartialDate {
        Self(dayNumber: dayNumber + days)
    }

    /// Days since 1970-01-01, by Howard Hinnant's `days_from_civil`; a date
    /// without a year counts as one of year 0.
    public var dayNumber: Int {
        let shifted = (year ?? 0) - (month <= 2 ? 1 : 0)
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `dayNumber` days after 1970-01-01 (`civil_from_days`).
    public init(dayNumber: Int) {
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func days(inMonth month: Int, year: Int?) -> Int {
        switch month {
        case 2:
            guard let year else { return 29 }
            return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
