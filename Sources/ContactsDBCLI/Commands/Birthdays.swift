import ArgumentParser
import ContactsDB
import Foundation

extension ContactsDBCommand {
    struct Birthdays: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "birthdays",
            abstract: "List the birthdays and anniversaries of the coming days, in date order, with the age reached.",
            discussion: """
                Lists the --from day and the --within days after it. Every date of a contact's `dates` \
                counts as an anniversary, whatever its label. A date without a year has no age; 29 February \
                falls on 28 February in other years. --format ics writes every birthday and anniversary, \
                whatever --from and --within say, as an RFC 5545 calendar of yearly all-day events, for a \
                calendar app to import or subscribe to (docs/cli.md). Examples:
                  contactsdb birthdays
                  contactsdb birthdays --from 2027-12-20 --within 14 --format json
                  contactsdb birthdays --format ics --book family > birthdays.ics
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case table, json, ndjson, csv, ics
        }

        /// A span longer than this would list some dates twice.
        static let longestSpan = 366

        @OptionGroup var database: DatabaseOptions
        @Option(help: ArgumentHelp("How many days after the first to list, 0 to \(longestSpan).", valueName: "days"))
        var within: Int = 30
        @Option(help: ArgumentHelp("The first day, YYYY-MM-DD (default: today).", valueName: "date"))
        var from: String?
        @Option(help: "Output format.") var format: Format = .table
        @OptionGroup var books: BookOption<SeveralBooks>

        func validate() throws {
            guard (0...Self.longestSpan).contains(within) else {
                throw ValidationError("Please give --within as 0 to \(Self.longestSpan) days (got \(within)).")
            }
            _ = try start()
        }

        func run() throws {
            let store = try database.openStore()
            guard format != .ics else { return try writeCalendar(store) }
            let dates = try store.upcomingDates(from: try start(), within: within, inBooks: books.names)
            switch format {
            case .ics:
                break  // written above: the calendar holds every date, whatever the span
            case .table:
                guard !dates.isEmpty else { print("No birthdays or anniversaries in these days."); return }
                let rows = dates.map { [$0.date.text, $0.age.map(String.init) ?? "", $0.kind.rawValue, $0.label, $0.displayName, $0.id] }
                print(ContactPrinter.alignedColumns([["DATE", "AGE", "KIND", "LABEL", "NAME", "ID"]] + rows), terminator: "")
            case .json:
                try JSONOutput.printArray(dates)
            case .ndjson:
                try JSONOutput.printLines(dates)
            case .csv:
                print("id,displayName,kind,label,date,age\r")
                for date in dates {
                    let fields = [date.id, date.displayName, date.kind.rawValue, date.label, date.date.text, date.age.map(String.init) ?? ""]
                    print(fields.map(CSVTable.field).joined(separator: ",") + "\r")
                }
            }
        }

        /// The calendar on stdout; the dates it leaves out counted on stderr.
        private func writeCalendar(_ store: ContactStore) throws {
            let calendar = try store.birthdayCalendar(inBooks: books.names)
            calendar.write { StandardOutput.write($0) }
            try StandardOutput.finish()
            if calendar.leftOut > 0 {
                Terminal.printNotice("left out \(calendar.leftOut) dates that are not dates (kept as the cards wrote them)")
            }
        }

        /// The first day: `--from`, or today where this process runs.
        private func start() throws -> PartialDate {
            guard let from else { return .today() }
            guard let date = PartialDate(from.trimmingCharacters(in: .whitespaces)), date.year != nil,
                  date.adding(days: within).year! <= 9999 else {
                throw ValidationError("Please give --from as a day from 0001-01-01 to 9999-12-31, written YYYY-MM-DD (got \"\(from)\").")
            }
            return date
        }
    }
}
