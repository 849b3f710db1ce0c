import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

/// `--phone` and `--text` against brute force: every piece of every stored
/// number finds exactly the contacts whose numbers hold it, by the rule of
/// ``ContactQuery/phoneDigits(_:regions:)`` — the digits typed occur in a
/// number's normalized digits, or the E.164 digits of a piece that a
/// default region reads as a valid number do.
@Suite struct PhonePieceTests {
    /// 2,000 numbers of 11 to 15 digits in the forms people write: with
    /// "+", national with a trunk prefix, grouped by spaces, dashes, dots
    /// and parentheses, or bare.
    static let numbers: [String] = {
        var random = SplitMix64(seed: 27)
        func digits(_ count: Int) -> String { String((0..<count).map { _ in Character(String(random.below(10))) }) }
        func grouped(_ text: String) -> String {
            var result = "", index = 0
            let separators = [" ", "-", ".", " "]
            let separator = separators[random.below(separators.count)]
            for character in text {
                if index > 0, index % (2 + random.below(3)) == 0 { result += separator }
                result.append(character)
                index += 1
            }
            return result
        }
        var numbers: [String] = []
        while numbers.count < 2_000 {
            let form = random.below(10)
            let number: String
            switch form {
            case 0: number = "+7 9\(digits(2)) \(digits(3))-\(digits(2))-\(digits(2))"
            case 1: number = "8 (9\(digits(2))) \(digits(7))"
            case 2: number = "+82 10-\(digits(4))-\(digits(4))"
            case 3: number = "010-\(digits(4))-\(digits(4))"
            case 4: number = "+82 70 \(digits(4)) \(digits(4))"
            case 5: number = "070-\(digits(4))-\(digits(4))"
            case 6: number = "+1 (\(2 + random.below(8))\(digits(2))) \(2 + random.below(8))\(digits(2))-\(digits(4))"
            case 7: number = "+44 20 \(digits(4)) \(digits(4))"
            case 8: number = "+49 30 \(digits(4 + random.below(5)))"
            default:
                // Any country code, any length up to 15 digits, grouped.
                let code = String(1 + random.below(998))
                number = "+" + code + " " + grouped(digits(11 - code.count + random.below(5)))
            }
            let count = number.filter(\.isNumber).count
            if (11...15).contains(count) { numbers.append(number) }
        }
        return numbers
    }()

    /// One store, its first thousand contacts written with the triggers
    /// live and the rest with the indexes deferred and built at the end.
    static let store: ContactStore = {
        let drafts = numbers.enumerated().map { index, number in
            ContactDraft(id: "p\(index)", firstName: "Person", phones: [Phone(value: number)])
        }
        let json = Data(("[" + drafts.map(\.jsonText).joined(separator: ",") + "]").utf8)
        let store = try! ContactStore.makeEmpty()
        _ = try! store.write { db in
            try ImportPipeline(inputs: [.data(json, source: "phones.json")], deferringIndexesAfter: 1_000,
                           deferringAtOnce: false).run(db)
        }
        return store
    }()

    /// Each contact's stored normalized digits, as the reference reads them.
    static let stored: [(id: String, digits: String)] = numbers.enumerated().map { index, number in
        ("p\(index)", PhoneNumber(number, regions: .default).normalized.filter(\.isNumber))
    }

    /// Every digit string that occurs in a stored number, with the ids of
    /// the numbers it occurs in: each substring of each number, listed.
    static let holders: [String: Set<String>] = {
        var holders: [String: Set<String>] = [:]
        for (id, digits) in stored {
            let digits = Array(digits)
            for start in digits.indices {
                for end in start + 1...digits.count { holders[String(digits[start..<end]), default: []].insert(id) }
            }
        }
        return holders
    }()

    /// The ids brute force finds for `piece`: written out here, apart from
    /// the engine's own reading of a filter.
    static func bruteForce(_ piece: String) -> Set<String> {
        let number = PhoneNumber(piece, regions: .default)
        var wanted = [number.digits]
        if let e164 = number.e164 { wanted.append(e164.filter(\.isNumber)) }
        return wanted.reduce(into: []) { $0.formUnion(holders[$1] ?? []) }
    }

    /// Every piece of `length` digits at every offset of each number's
    /// digits, as written and as normalized.
    static func pieces(ofLength lengths: ClosedRange<Int>) -> [String] {
        var seen: Set<String> = [], pieces: [String] = []
        for (index, number) in numbers.enumerated() {
            for text in [number.filter(\.isNumber), stored[index].digits] {
                let digits = Array(text)
                for length in lengths where length <= digits.count {
                    for start in 0...(digits.count - length) {
                        let piece = String(digits[start..<start + length])
                        if seen.insert(piece).inserted { pieces.append(piece) }
                    }
                }
            }
        }
        return pieces
    }

    /// The pieces `--phone` and `--text` (for pieces of digits alone) do
    /// not find exactly as brute force does.
    static func wrongPieces(_ pieces: [String]) throws -> (phone: [String], text: [String]) {
        var wrong: (phone: [String], text: [String]) = ([], [])
        for piece in pieces {
            let expected = bruteForce(piece)
            if Set(try store.ids(matching: ContactQuery().filter(.phone(piece)))) != expected { wrong.phone.append(piece) }
            if piece.allSatisfy(\.isNumber), Set(try store.ids(matching: ContactQuery().filter(.text(piece)))) != expected {
                wrong.text.append(piece)
            }
        }
        return wrong
    }

    @Test func everyPieceOfThreeToSevenDigitsFindsExactlyItsNumbers() throws {
        let pieces = Self.pieces(ofLength: 3...7)
        #expect(pieces.count > 30_000)
        // Pieces a default region reads as a whole number (Korean "621319")
        // are among them: where typed and E.164 digits differ.
        let readAsNumbers = pieces.filter { piece in
            PhoneNumber(piece, regions: .default).e164.map { !$0.contains(piece) } ?? false
        }
        #expect(readAsNumbers.count > 20)
        let wrong = try Self.wrongPieces(pieces)
        #expect(wrong.phone.isEmpty, "\(wrong.phone.count) pieces differ, first \(wrong.phone.prefix(10))")
        #expect(wrong.text.isEmpty, "\(wrong.text.count) pieces differ, first \(wrong.text.prefix(10))")
    }

    @Test func piecesOfEightDigitsOrMoreAndWholeNumbersFindExactlyTheirNumbers() throws {
        var pieces = Self.pieces(ofLength: 8...15).enumerated().filter { $0.offset % 7 == 0 }.map(\.element)
        pieces += Self.numbers.enumerated().filter { $0.offset % 5 == 0 }.map(\.element)
        #expect(pieces.count > 3_000)
        let wrong = try Self.wrongPieces(pieces)
        #expect(wrong.phone.isEmpty, "\(wrong.phone.count) pieces differ, first \(wrong.phone.prefix(10))")
        #expect(wrong.text.isEmpty, "\(wrong.text.count) pieces differ, first \(wrong.text.prefix(10))")
    }

    @Test func theReportedKoreanPiecesFindTheirNumber() throws {
        let store = try ContactStore.makeEmpty()
        let contact = try store.add(ContactDraft(firstName: "Ji", phones: [Phone(value: "+82 70 9862 1319")]))
        for piece in ["621319", "62131", "21319", "8621319", "709862"] {
            #expect(try store.ids(matching: ContactQuery().filter(.phone(piece))) == [contact.id], "\(piece)")
            #expect(try store.ids(matching: ContactQuery().filter(.text(piece))) == [contact.id], "\(piece)")
        }
        for number in ["+82 70 9862 1319", "070-9862-1319", "07098621319"] {
            #expect(try store.ids(matching: ContactQuery().filter(.phone(number))) == [contact.id], "\(number)")
        }
    }
}
