/// One all-day event that recurs every year, as the birthday calendar
/// holds it (docs/cli.md, `birthdays --format ics`).
package struct YearlyEvent: Equatable, Sendable {
    /// Stable across runs: the same date of the same contact keeps it.
    package var uid: String
    /// When the event's information last changed, `YYYYMMDDTHHMMSSZ`.
    package var stamp: String
    /// The first day; a date without a year is given one by the caller.
    package var start: PartialDate
    package var summary: String
    package var category: String

    package init(uid: String, stamp: String, start: PartialDate, summary: String, category: String) {
        self.uid = uid
        self.stamp = stamp
        self.start = start
        self.summary = summary
        self.category = category
    }
}

/// Writes an RFC 5545 calendar of yearly all-day events: CRLF line ends,
/// content lines folded at 75 octets (never inside a UTF-8 sequence) and
/// TEXT values escaped. A pure function of its values.
package enum ICalendarWriter {
    /// The most octets of a content line, its CRLF not counted (RFC 5545
    /// §3.1); a continuation's leading space counts.
    static let lineOctets = 75

    /// The whole calendar: VCALENDAR with its VERSION, PRODID and
    /// CALSCALE, then one VEVENT per event in the order given.
    package static func calendar(_ events: [YearlyEvent], name: String) -> String {
        var text = ""
        text.reserveCapacity(events.count * 260 + 200)
        write(events, name: name) { text += $0 }
        return text
    }

    /// The same calendar a part at a time, in order: its head, each event,
    /// its end. A million contacts' calendar is some 80 MB of text, which a
    /// writer to a file or a socket need never hold whole.
    package static func write(_ events: [YearlyEvent], name: String, to output: (String) throws -> Void) rethrows {
        var part = ""
        for line in ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//contactsdb//birthdays//EN", "CALSCALE:GREGORIAN",
                     "X-WR-CALNAME:" + escape(name)] {
            append(line, to: &part)
        }
        try output(part)
        for event in events {
            part.removeAll(keepingCapacity: true)
            append(event, to: &part)
            try output(part)
        }
        part.removeAll(keepingCapacity: true)
        append("END:VCALENDAR", to: &part)
        try output(part)
    }

    private static func append(_ event: YearlyEvent, to text: inout String) {
        let start = event.start
        // 29 February recurs on the last day of February, so that it
        // falls on the 28th in a year without one (docs/cli.md).
        let rule = start.month == 2 && start.day == 29 ? "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1" : "FREQ=YEARLY"
        append("BEGIN:VEVENT", to: &text)
        append("UID:" + escape(event.uid), to: &text)
        append("DTSTAMP:" + event.stamp, to: &text)
        append("DTSTART;VALUE=DATE:" + dateValue(start), to: &text)
        append("RRULE:" + rule, to: &text)
        append("SUMMARY:" + escape(event.summary), to: &text)
        append("CATEGORIES:" + escape(event.category), to: &text)
        append("TRANSP:TRANSPARENT", to: &text)
        append("END:VEVENT", to: &text)
    }

    /// `YYYYMMDD`, the date's year being known.
    static func dateValue(_ date: PartialDate) -> String {
        String(date.text.filter { $0 != "-" })
    }

    /// A TEXT value (RFC 5545 §3.3.11): backslash, semicolon and comma
    /// escaped, every line break written `\n`. Other control characters,
    /// which TEXT cannot hold, are left out.
    package static func escape(_ text: String) -> String {
        // Most values hold nothing to escape or leave out.
        guard text.utf8.contains(where: needsEscaping) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            switch scalar {
            case "\\": escaped += "\\\\"
            case ";": escaped += "\\;"
            case ",": escaped += "\\,"
            case "\r": escaped += "\\n"
            case "\n": if !afterCR { escaped += "\\n" }
            case "\t": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: break
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// An octet for which ``escape(_:)`` looks at each scalar: a
    /// backslash, semicolon or comma, or a control character (a tab, which
    /// it keeps, included).
    private static func needsEscaping(_ octet: UInt8) -> Bool {
        octet < 0x20 || octet == 0x7F
            || octet == UInt8(ascii: "\\") || octet == UInt8(ascii: ";") || octet == UInt8(ascii: ",")
    }

    /// Appends `line` folded: after 75 octets, CRLF and a space, at a
    /// scalar's start so that no UTF-8 sequence is cut.
    package static func append(_ line: String, to text: inout String) {
        // Most lines fit whole: no scalar need be looked at.
        if line.utf8.count <= lineOctets {
            text += line
            text += "\r\n"
            return
        }
        var octets = 0
        for scalar in line.unicodeScalars {
            let width = UTF8.width(scalar)
            if octets + width > lineOctets {
                text += "\r\n "
                octets = 1
            }
            text.unicodeScalars.append(scalar)
            octets += width
        }
        text += "\r\n"
    }
}
