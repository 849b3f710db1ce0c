import Foundation
import Testing
@testable import ContactsDB
import ContactsDBFuzzing

/// Each reader takes time linear in its input, on the shapes that make a
/// naive reader quadratic. A 1 MB input of each shape must take no longer
/// than a generous multiple of a 16 KB one's time scaled by size: a ratio,
/// so the bound holds on a slow or busy machine.
@Suite(.serialized) struct LinearTimeTests {
    /// An input of about `size` bytes of one pathological shape.
    struct Shape: CustomTestStringConvertible, Sendable {
        var name: String
        var make: @Sendable (_ size: Int) -> Data
        var testDescription: String { name }
    }

    static let smallSize = 16 * 1024
    static let largeSize = 1024 * 1024
    /// A linear reader stays well within this factor of the extrapolation,
    /// even on a busy machine; a quadratic one exceeds it about 64-fold (the
    /// size ratio) at these sizes: the old unfolding took 63 s where this
    /// allowed 17.
    static let slack = 16.0
    static let constant = 0.25

    static func seconds(_ body: () -> Void) -> Double {
        let elapsed = ContinuousClock().measure(body)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Best of a few runs, so that one preempted run does not set the pace.
    static func bestTime(of input: Data, runs: Int, _ read: (Data) -> Void) -> Double {
        (0..<runs).map { _ in seconds { read(input) } }.min() ?? 0
    }

    static func checkLinear(_ shape: Shape, _ read: (Data) -> Void) {
        let small = shape.make(smallSize), large = shape.make(largeSize)
        read(small)  // warm up
        let smallTime = bestTime(of: small, runs: 5, read)
        let largeTime = bestTime(of: large, runs: 2, read)
        let bound = slack * smallTime * Double(large.count) / Double(small.count) + constant
        #expect(largeTime <= bound, """
            \(shape.name): \(large.count) bytes took \(largeTime) s, \(small.count) bytes \(smallTime) s; \
            more than \(bound) s is not linear.
            """)
    }

    static func repeated(_ head: String, _ unit: String, _ tail: String, size: Int) -> Data {
        let count = max(1, (size - head.utf8.count - tail.utf8.count) / unit.utf8.count)
        return Data((head + String(repeating: unit, count: count) + tail).utf8)
    }

    // MARK: - vCard

    static let cardHead = "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Doe;Jane;;;\r\n"
    static let cardTail = "\r\nEND:VCARD\r\n"

    static let vCardShapes: [Shape] = [
        Shape(name: "a long folded line") { size in
            repeated(cardHead + "NOTE:", String(repeating: "x", count: 74) + "\r\n ", "x" + cardTail, size: size)
        },
        Shape(name: "quoted-printable soft line breaks") { size in
            repeated(cardHead + "NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:",
                     String(repeating: "=D0=96", count: 12) + "=\r\n", "x" + cardTail, size: size)
        },
        Shape(name: "a folded parameter list") { size in
            repeated(cardHead + "NOTE", ";ENCODING=8BIT\r\n ", ";ENCODING=QUOTED-PRINTABLE:a=\r\nb" + cardTail, size: size)
        },
        Shape(name: "100k parameters on one property") { size in
            repeated(cardHead + "TEL", ";TYPE=home", ":+1 415 555 0100" + cardTail, size: size)
        },
        Shape(name: "100k bare types and empty parameters") { size in
            repeated(cardHead + "EMAIL", ";WORK;;=", ":a@b.c" + cardTail, size: size)
        },
        Shape(name: "a huge escaped value") { size in
            repeated(cardHead + "ORG:", "a\\,b\\;c\\n", cardTail, size: size)
        },
        Shape(name: "a huge quoted parameter") { size in
            repeated(cardHead + "TEL;X-A=\"", "a;b:c", "\":1" + cardTail, size: size)
        },
        Shape(name: "many cards") { size in
            repeated("", cardHead + "TEL;CELL:+1 415 555 0100\r\nEMAIL;;TYPE=home:a@b.c" + cardTail, "", size: size)
        },
    ]

    @Test(arguments: vCardShapes)
    func theVCardReaderIsLinear(_ shape: Shape) {
        Self.checkLinear(shape) { Fuzzing.readVCard($0) }
    }

    // MARK: - JSON

    /// Issue 44, item 5: one card of many lines (a group card's MEMBER
    /// lines, a contact's lines kept in `extra`) reads in time linear in
    /// its lines, as a sync and an import read it: the time per line at
    /// 200,000 lines stays within a few times that at 10,000 (a quadratic
    /// reader's is 20 times; it took 45 s for 100,000 MEMBER lines).
    @Test(arguments: [("MEMBER", "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nFN:Everyone\r\nUID:g\r\n"),
                      ("X-KEPT", "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Jane Doe\r\nUID:c\r\n")])
    func oneCardOfManyLinesReadsInTimeLinearInItsLines(name: String, head: String) throws {
        func card(_ lines: Int) -> Data {
            var text = head
            for index in 0..<lines { text += "\(name):urn:uuid:00000000-0000-0000-0000-\(String(format: "%012d", index))\r\n" }
            return Data((text + "END:VCARD\r\n").utf8)
        }
        func read(_ data: Data) { _ = try? ImportedCard.read(vCard: data, source: "card.vcf", regions: .default) }
        let (small, large) = (card(10_000), card(200_000))
        read(small)  // warm up
        let perLineSmall = Self.bestTime(of: small, runs: 3, read) / 10_000
        let perLineLarge = Self.bestTime(of: large, runs: 1, read) / 200_000
        #expect(perLineLarge <= 4 * perLineSmall + 2e-6,
                "\(name): \(perLineLarge * 1e6) µs a line at 200,000 lines, \(perLineSmall * 1e6) µs at 10,000")
    }

    static let jsonShapes: [Shape] = [
        Shape(name: "nesting just short of the limit, repeated") { size in
            let nested = String(repeating: "[", count: JSONReader.maxDepth - 2) + String(repeating: "]", count: JSONReader.maxDepth - 2)
            return repeated("[", "{\"firstName\":\"a\",\"displayName\":\(nested)},", "{\"firstName\":\"a\"}]", size: size)
        },
        Shape(name: "nesting past the limit") { size in
            repeated("[{\"displayName\":", "[", "", size: size)
        },
        Shape(name: "a huge string") { size in
            repeated("[{\"displayName\":\"", "abcdefgh", "\",\"firstName\":\"a\"}]", size: size)
        },
        Shape(name: "a huge string of escapes") { size in
            repeated("[{\"displayName\":\"", "\\u00e9\\n\\ud83d\\ude00", "\",\"firstName\":\"a\"}]", size: size)
        },
        Shape(name: "many keys in one contact") { size in
            repeated("[{", "\"sortName\":[1,{\"a\":null}],", "\"firstName\":\"a\"}]", size: size)
        },
        Shape(name: "an error at the end of one long line") { size in
            repeated("[", "{\"firstName\":\"a\"},", "x", size: size)
        },
        Shape(name: "many contacts") { size in
            repeated("{\"contacts\":[", "{\"firstName\":\"Ann\",\"phones\":[{\"type\":\"home\",\"value\":\"+1 415 555 0100\"}]},",
                     "{\"firstName\":\"a\"}]}", size: size)
        },
    ]

    @Test(arguments: jsonShapes)
    func theJSONReaderIsLinear(_ shape: Shape) {
        Self.checkLinear(shape) { Fuzzing.readJSON($0) }
    }

    // MARK: - CSV

    static let csvShapes: [Shape] = [
        Shape(name: "a huge quoted field of doubled quotes and line breaks") { size in
            repeated("id,firstName,note\r\na,Ann,\"", "\"\"x\r\n", "\"\r\n", size: size)
        },
        Shape(name: "a header of many columns") { size in
            repeated("id,firstName", ",Column", "\r\na,Ann\r\n", size: size)
        },
        Shape(name: "many rows") { size in
            repeated("First Name,Phone 1 - Label,Phone 1 - Value,Labels\r\n", "Ann,Mobile,+1 415 555 0100,* starred ::: Friends\r\n", "",
                     size: size)
        },
        Shape(name: "a wide header of list columns, then many short rows") { size in
            let columns = (1...max(1, size / 2 / 20)).map { ",Phone \($0) - Value" }.joined()
            return Data(("First Name" + columns + "\r\n" + String(repeating: "Ann\r\n", count: max(1, size / 2 / 5))).utf8)
        },
        Shape(name: "a quote never closed") { size in
            repeated("id,firstName\r\na,\"", "x,y\r\n", "", size: size)
        },
    ]

    @Test(arguments: csvShapes)
    func theCSVReaderIsLinear(_ shape: Shape) {
        Self.checkLinear(shape) { Fuzzing.readCSV($0) }
    }
}
