import Foundation
import Testing
@testable import ContactsDB

/// ``ContactStore/birthdayCalendar(inBooks:)``: one yearly event per
/// birthday and anniversary, with the summaries, UIDs and starts
/// docs/cli.md gives, in any book or some.
@Suite struct BirthdayCalendarTests {
    /// The calendar's unfolded lines.
    func lines(_ calendar: BirthdayCalendar) -> [String] {
        calendar.text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
    }

    /// Each event as `UID | DTSTART | RRULE | SUMMARY | CATEGORIES`.
    func events(_ calendar: BirthdayCalendar) -> [String] {
        var events: [String] = []
        var current: [String: String] = [:]
        for line in lines(calendar) {
            if line == "END:VEVENT" {
                events.append(["UID", "DTSTART;VALUE=DATE", "RRULE", "SUMMARY", "CATEGORIES"]
                    .map { current[$0] ?? "" }.joined(separator: " | "))
                current = [:]
            } else if let colon = line.firstIndex(of: ":") {
                current[String(line[..<colon])] = String(line[line.index(after: colon)...])
            }
        }
        return events
    }

    func store() throws -> (ContactStore, [Contact]) {
        let store = try ContactStore.makeEmpty()
        try store.createBook(named: "family")
        var anna = ContactDraft(firstName: "Anna", lastName: "Müller")
        anna.birthday = "1990-04-12"
        anna.dates = [LabeledValue(type: "wedding", value: "2015-06-20"), LabeledValue(type: "other", value: "--01-05")]
        var leap = ContactDraft(firstName: "Ли", lastName: "Мин, Хо")
        leap.birthday = "--02-29"
        var company = ContactDraft(company: "Acme; Sons")
        company.dates = [LabeledValue(type: "anniversary", value: "1996-02-29")]
        let mine = try store.add([anna, leap])
        let family = try store.add([company], toBook: "family")
        return (store, mine + family)
    }

    @Test func everyDateIsOneYearlyEventWithItsSummaryUIDAndStart() throws {
        let (store, contacts) = try store()
        let (anna, leap, company) = (contacts[0].id, contacts[1].id, contacts[2].id)
        let calendar = try store.birthdayCalendar()
        #expect(calendar.eventCount == 5 && calendar.leftOut == 0)
        #expect(events(calendar) == [
            "\(anna)/date-1 | 19720105 | FREQ=YEARLY | Anna Müller\\, anniversary | ANNIVERSARY",
            // One day: in the list's order (A before М).
            "\(company)/date-0 | 19960229 | FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1 | Acme\\; Sons\\, anniversary (1996) | ANNIVERSARY",
            "\(leap)/birthday | 19720229 | FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1 | Ли Мин\\, Хо | BIRTHDAY",
            "\(anna)/birthday | 19900412 | FREQ=YEARLY | Anna Müller (1990) | BIRTHDAY",
            "\(anna)/date-0 | 20150620 | FREQ=YEARLY | Anna Müller\\, wedding (2015) | ANNIVERSARY",
        ])
        #expect(lines(calendar).filter { $0.hasPrefix("DTSTAMP:") }.count == 5)
        #expect(lines(calendar).filter { $0.hasPrefix("DTSTAMP:") }.allSatisfy { $0.wholeMatch(of: /DTSTAMP:\d{8}T\d{6}Z/) != nil })
        // The same database gives the same calendar, byte for byte.
        #expect(try store.birthdayCalendar().text == calendar.text)
    }

    @Test func booksNarrowTheCalendarAndAnUnknownBookIsAnError() throws {
        let (store, contacts) = try store()
        let family = try store.birthdayCalendar(inBooks: ["family"])
        #expect(events(family).map { $0.prefix(contacts[2].id.count) } == [Substring(contacts[2].id)])
        #expect(try store.birthdayCalendar(inBooks: ["family", "local"]).eventCount == 5)
        #expect(throws: ContactsDBError.self) { try store.birthdayCalendar(inBooks: ["nowhere"]) }
    }

    @Test func datesThatAreNotDatesAreLeftOutAndCounted() throws {
        let store = try ContactStore.makeEmpty()
        let cards = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:Omit Year\r
            BDAY;X-APPLE-OMIT-YEAR=1604:1604-08-12\r
            item1.X-ABDATE:circa spring\r
            item1.X-ABLabel:_$!<Anniversary>!$_\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Text Day\r
            BDAY;VALUE=text:circa 1800\r
            ANNIVERSARY:20100230\r
            NOTE:BDAY in the note is no date\r
            END:VCARD\r

            """
        _ = try store.importContacts(Data(cards.utf8), source: "cards.vcf")
        let calendar = try store.birthdayCalendar()
        #expect(calendar.eventCount == 1 && calendar.leftOut == 3)
        #expect(events(calendar).map { $0.split(separator: " | ").dropFirst().joined(separator: " | ") }
                == ["19720812 | FREQ=YEARLY | Omit Year | BIRTHDAY"])
    }
}
