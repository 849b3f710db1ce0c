import Foundation

/// ISO 8601 timestamps in UTC with milliseconds (`2026-11-22T09:15:00.000Z`),
/// the form stored in the database and written to JSON. Fixed-format
/// parsing keeps decoding a page of contacts cheap.
public enum Timestamp {
    /// Writes `date` as `YYYY-MM-DDTHH:MM:SS.sssZ`, milliseconds rounded down.
    public static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let days = Int64((Double(milliseconds) / 86_400_000).rounded(.down))
        let msOfDay = milliseconds - days * 86_400_000
        let date = PartialDate(dayNumber: Int(days))
        let (year, month, day) = (Int64(date.year ?? 0), Int64(date.month), Int64(date.day))
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
        let days = Int64(PartialDate(year: Int(year), month: Int(month), day: Int(day)).dayNumber)
        let total = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: Double(total) + Double(milliseconds) / 1000)
    }
}
