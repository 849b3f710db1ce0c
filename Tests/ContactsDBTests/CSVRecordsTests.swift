import Foundation
import Testing
@testable import ContactsDB

/// The CSV reader's syntax (RFC 4180 and what spreadsheets write) and the
/// telling of layouts by their headers.
@Suite struct CSVRecordsTests {
    func records(_ bytes: [UInt8]) throws -> (records: [[String]], separator: UInt8, encoding: CSVRecords.TextEncoding) {
        try bytes.withUnsafeBufferPointer { buffer in
            var reader = CSVRecords(buffer, source: "t.csv")
            var records: [[String]] = []
            while let record = try reader.next() { records.append(record) }
            return (records, reader.separator, reader.encoding)
        }
    }

    func records(_ text: String) throws -> [[String]] { try records(Array(text.utf8)).records }

    @Test func quotedFieldsHoldSeparatorsQuotesAndLineBreaks() throws {
        #expect(try records("a,b\r\n\"x,y\",\"say \"\"hi\"\"\"\r\n\"two\r\nlines\",\"\"\r\n")
                == [["a", "b"], ["x,y", "say \"hi\""], ["two\r\nlines", ""]])
        // A quote inside an unquoted field is kept, as spreadsheets read it.
        #expect(try records("a,b\n5\" disk,x\n") == [["a", "b"], ["5\" disk", "x"]])
        // CR alone ends a line (old Mac exports); a blank line holds no record.
        #expect(try records("a,b\r1,2\r\r3,\r") == [["a", "b"], ["1", "2"], ["3", ""]])
        // No line end after the last record.
        #expect(try records("a,b\n1,2") == [["a", "b"], ["1", "2"]])
    }

    @Test func theSeparatorIsTheOneTheHeaderHoldsMostOf() throws {
        #expect(try records(Array("a;b;\"c,d\"\n1;2;3\n".utf8)).separator == UInt8(ascii: ";"))
        #expect(try records(Array("a\tb,c\tf\n".utf8)).separator == UInt8(ascii: "\t"))
        #expect(try records(Array("a,b;c\n".utf8)).separator == UInt8(ascii: ","))
        #expect(try records(Array("\u{FEFF}a;b\n1;2\n".utf8)).records == [["a", "b"], ["1", "2"]])
    }

    @Test func aFileThatIsNotUTF8IsReadAsWindows1252() throws {
        let read = try records([0x4E, 0x61, 0x6D, 0x65, 0x0A, 0x5A, 0x6F, 0xEB, 0x20, 0x96, 0x20, 0x80, 0x0A])
        #expect(read.encoding == .windows1252 && read.records == [["Name"], ["Zoë – €"]])
        let utf8 = try records(Array("Name\nZoë – €\n".utf8))
        #expect(utf8.encoding == .utf8 && utf8.records == read.records)
        // Overlong forms and surrogates are not UTF-8.
        #expect(![UInt8]([0xC0, 0xAF]).withUnsafeBufferPointer { CSVRecords.isUTF8($0) })
        #expect(![UInt8]([0xED, 0xA0, 0x80]).withUnsafeBufferPointer { CSVRecords.isUTF8($0) })
    }

    @Test func brokenSyntaxNamesTheLineItBeganOn() {
        #expect(throws: ContactsDBError.invalidContact(
            field: "t.csv line 2", reason: "not valid CSV: a quoted field opened on this line is never closed; fix the file and try again.")) {
            _ = try records("a,b\n1,\"open\nstill\n")
        }
        #expect(throws: ContactsDBError.self) { _ = try records("a,b\n\"x\"y,1\n") }
    }

    @Test func layoutsAreToldByTheirHeaders() {
        #expect(CSVLayout.recognizing(["id", "kind", "firstName", "phone1Value"]) == .contactsDB)
        #expect(CSVLayout.recognizing(["First Name", "Last Name", "Labels", "E-mail 1 - Label", "E-mail 1 - Value"]) == .google)
        #expect(CSVLayout.recognizing(["Name", "Given Name", "Family Name", "Group Membership", "E-mail 1 - Type"]) == .googleOlder)
        #expect(CSVLayout.recognizing(["First Name", "Last Name", "E-mail Address", "Business Phone", "Categories"]) == .outlook)
        #expect(CSVLayout.recognizing(["Colour", "Shape"]) == nil)
        #expect(CSVLayout.keptName("Assistant's Name") == "X-ASSISTANT-S-NAME")
        #expect(CSVLayout.outlookDate("4/12/1990") == "1990-04-12" && CSVLayout.outlookDate("0/0/00") == nil)
        #expect(CSVLayout.outlookDateText("1990-04-12") == "4/12/1990" && CSVLayout.outlookDateText("--04-12") == nil)
    }
}
