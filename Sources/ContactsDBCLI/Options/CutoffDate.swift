import ArgumentParser
import ContactsDB
import Foundation

/// A UTC date or time given to an option that forgets what came before it
/// (`compact --changes-before`, `trash empty --before`): midnight UTC for
/// a date alone.
enum CutoffDate {
    static func parse(_ text: String, option: String) throws -> Date {
        guard let date = Timestamp.date(from: text) ?? (text.count == 10 ? Timestamp.date(from: text + "T00:00:00Z") : nil)
        else {
            throw ValidationError("Please give \(option) as a UTC date, 2026-01-31, or time, 2026-01-31T12:00:00Z (got \"\(text)\").")
        }
        return date
    }
}
