import Foundation
import Testing
@testable import ContactsDB

/// The calendar's lines as RFC 5545 has them: folded at 75 octets on a
/// scalar's start, CRLF, TEXT escaped; and the yearly events' rules.
@Suite struct ICalendarWriterTests {
    func folded(_ line: String) -> String {
        var text = ""
        ICalendarWriter.append(line, to: &text)
        return text
    }

    /// The physical lines, each as bytes without its CRLF.
    func physicalLines(_ text: String) -> [[UInt8]] {
        var lines: [[UInt8]] = [[]]
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                lines.append([])
                index += 2
            } else {
                lines[lines.count - 1].append(bytes[index])
                index += 1
            }
        }
        return lines.last == [] ? Array(lines.dropLast()) : lines
    }

    /// Undoes the folding: a CRLF followed by a space is removed.
    func unfolded(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n ", with: "")
    }

    @Test func aLineOf75OctetsIsNotFoldedAnd76AreFoldedAfterThe75th() {
        let exact = "SUMMARY:" + String(repeating: "a", count: 67)
        #expect(folded(exact) == exact + "\r\n")
        let longer = exact + "b"
        #expect(folded(longer) == exact + "\r\n b\r\n")
    }

    @Test func aFourByteCharacterAtTheBoundaryMovesWholeToTheNextLine() {
        // 73 octets, then 😀 (F0 9F 98 80): 77 would pass the limit, so the
        // fold comes before the character, never inside it.
        let line = "SUMMARY:" + String(repeating: "a", count: 65) + "😀" + "z"
        let lines = physicalLines(folded(line))
        #expect(lines.count == 2)
        #expect(lines[0].count == 73)
        #expect(lines[1] == [0x20] + Array("😀z".utf8))
        #expect(String(decoding: lines[1], as: UTF8.self) == " 😀z")
        #expect(unfolded(folded(line)) == line + "\r\n")
    }

    @Test func everyPhysicalLineOfALongMultilingualValueHoldsAtMost75OctetsOfValidUTF8() {
        let line = "SUMMARY:" + String(repeating: "김민지 Анна-Мария 😀 é ", count: 20)
        let text = folded(line)
        for physical in physicalLines(text) {
            #expect(physical.count <= 75)
            #expect(String(validating: physical, as: UTF8.self) != nil, "a fold cut a UTF-8 sequence")
        }
        // Full lines are filled up to the limit but for a character that
        // would not fit.
        #expect(physicalLines(text).dropLast().allSatisfy { $0.count >= 72 })
        #expect(unfolded(text) == line + "\r\n")
    }

    /// A line is measured in octets, not characters, before it is copied
    /// whole: 75 characters of 76 octets are folded.
    @Test func aLineOf75CharactersButMoreOctetsIsFolded() {
        var text = ""
        ICalendarWriter.append(String(repeating: "a", count: 73) + "é", to: &text)
        #expect(text == String(repeating: "a", count: 73) + "é\r\n")
        text = ""
        ICalendarWriter.append(String(repeating: "a", count: 74) + "é", to: &text)
        #expect(text == String(repeating: "a", count: 74) + "\r\n é\r\n")
    }

    @Test func textIsEscapedAsRFC5545Says() {
        #expect(ICalendarWriter.escape(#"a\b;c,d"#) == #"a\\b\;c\,d"#)
        #expect(ICalendarWriter.escape("one\ntwo\r\nthree\rfour") == #"one\ntwo\nthree\nfour"#)
        #expect(ICalendarWriter.escape("tab\there\u{7}bell\u{0}") == "tab\there" + "bell")
        #expect(ICalendarWriter.escape("Ли Мин-хо: 이민호") == "Ли Мин-хо: 이민호")
    }

    @Test func aCalendarHasItsHeaderCRLFEverywhereAndOneEventPerValue() {
        let events = [
            YearlyEvent(uid: "a,1/birthday", stamp: "20261122T091500Z", start: PartialDate(year: 1990, month: 4, day: 12),
                        summary: "Anna Müller (1990)", category: "BIRTHDAY"),
            YearlyEvent(uid: "b/date-0", stamp: "20261122T091500Z", start: PartialDate(year: 1972, month: 2, day: 29),
                        summary: "Ivan; Petrov, wedding", category: "ANNIVERSARY"),
        ]
        let text = ICalendarWriter.calendar(events, name: "Birthdays")
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
        let lines = unfolded(text).components(separatedBy: "\r\n")
        #expect(Array(lines.prefix(4)) == ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//contactsdb//birthdays//EN",
                                           "CALSCALE:GREGORIAN"])
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 2)
        #expect(lines.contains("UID:a\\,1/birthday"))
        #expect(lines.contains("DTSTART;VALUE=DATE:19900412"))
        #expect(lines.contains("SUMMARY:Ivan\\; Petrov\\, wedding"))
        // 29 February recurs on the last day of February; others yearly.
        #expect(lines.filter { $0 == "RRULE:FREQ=YEARLY" }.count == 1)
        #expect(lines.contains("RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1"))
        #expect(lines.contains("DTSTART;VALUE=DATE:19720229"))
        #expect(lines.contains("DTSTAMP:20261122T091500Z"))
        #expect(lines.suffix(2) == ["END:VCALENDAR", ""])
    }

    /// What `birthdays --format ics` writes as it goes.
    @Test func aCalendarWrittenAPartAtATimeIsTheWholeOneInWholeLines() {
        let events = (1...40).map { n in
            YearlyEvent(uid: "c\(n)/birthday", stamp: "20261122T091500Z",
                        start: PartialDate(year: 1972, month: 1 + n % 12, day: n % 28 + 1),
                        summary: String(repeating: "Мария Иванова ", count: n % 7) + "(\(n))", category: "BIRTHDAY")
        }
        var parts: [String] = []
        ICalendarWriter.write(events, name: "Birthdays") { parts.append($0) }
        // The head, one part per event in order, the end, each of whole
        // lines (a fold never crosses parts).
        #expect(parts.count == events.count + 2)
        #expect(parts.allSatisfy { $0.hasSuffix("\r\n") && !$0.hasPrefix(" ") })
        let lines = parts.map { unfolded($0).components(separatedBy: "\r\n").dropLast() }
        #expect(lines.first == ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//contactsdb//birthdays//EN",
                                "CALSCALE:GREGORIAN", "X-WR-CALNAME:Birthdays"])
        #expect(lines.last == ["END:VCALENDAR"])
        for (event, eventLines) in zip(events, lines.dropFirst().dropLast()) {
            #expect(eventLines.first == "BEGIN:VEVENT" && eventLines.last == "END:VEVENT" && eventLines.count == 9)
            #expect(eventLines.contains("UID:" + event.uid))
            #expect(eventLines.contains("SUMMARY:" + event.summary))
        }
    }
}
