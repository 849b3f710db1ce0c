import Foundation

/// ISO 8601 timestamps in UTC with milliseconds (`2026-11-22T09:15:00.000Z`),
/// the form stored in the database and written to JSON. Fixed-format
/// parsing keeps decoding a page of contacts cheap.
public enum Timestamp {
    public static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let days = Int64((Double(milliseconds) / 86_400_000).rounded(.down))
        let msOfDay = milliseconds - days * 86_400_000
        let (year, month, day) = civilDate(fromDays: days)
        let seconds = msOfDay / 1000
        return String(
            format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ",
            year, month, day, seconds / 3600, seconds / 60 % 60, seconds % 60, msOfDay % 1000)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.sss]Z`; nil for anything else.
    public static func date(from string: String) -> Date? {
        let bytes = Array(string.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let digit = Int64(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var milliseconds: Int64 = 0
        if bytes.count == 24, bytes[19] == UInt8(ascii: "."), let fraction = number(20..<23) {
            milliseconds = fraction
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let total = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: Double(total) + Double(milliseconds) / 1000)
    }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilDate(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
