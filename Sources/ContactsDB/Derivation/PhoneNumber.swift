import Foundation
import CPhoneNumber

/// A phone number read by libphonenumber (docs/model.md, "Order, sections
/// and phone numbers"): its digits, its E.164 form where its country is
/// known, and the form an address book displays.
package struct PhoneNumber: Sendable {
    /// The number as entered, white space tidied.
    let value: String
    /// Every digit of the number, in order.
    let digits: String
    /// `+`, the country code and the national number, where the country is
    /// known: written with "+", or valid in one of the default regions.
    let e164: String?
    /// How an address book shows it (``display(value:e164:regions:)``),
    /// where it has an E.164 form and was read `displaying`.
    let display: String?

    /// - parameter displaying: also derive ``display``, in the same parse.
    init(_ value: String, regions: PhoneRegions, displaying: Bool = false) {
        let tidy = Text.tidy(value)
        self.value = tidy
        digits = String(decoding: tidy.utf8.filter { (0x30...0x39).contains($0) }, as: UTF8.self)
        (e164, display) = Self.read(tidy, regions: regions, displaying: displaying)
    }

    /// What phone search and storage use: E.164, or the digits alone.
    var normalized: String { e164 ?? digits }

    /// What libphonenumber makes of `text`, read in the first of `regions`
    /// where it is valid (or the first, when it is valid in none); nil when
    /// it cannot be read as a number at all.
    static func describe(_ text: String, regions: PhoneRegions) -> PhoneNumberDescription? {
        parsed(Text.tidy(text), regions: regions).map { number in
            PhoneNumberDescription(
                e164: Self.text(ofCField: number.e164), national: Self.text(ofCField: number.national),
                international: Self.text(ofCField: number.international),
                region: number.region.0 == 0 ? nil : Self.text(ofCField: number.region),
                type: String(cString: cpn_type_name(number.type)), valid: number.isValid == 1)
        }
    }

    /// How an address book shows a number whose E.164 form is `e164`:
    /// Russian numbers in the app's mask `+7 (912) 345-67-89`, numbers of
    /// a default region in their national form, others in the
    /// international form; a number with no E.164 form as it was written.
    static func display(value: String, e164: String?, regions: PhoneRegions) -> String {
        guard let e164 else { return value }
        if let masked = russianMask(e164) { return masked }
        var buffer = [CChar](repeating: 0, count: 64)
        guard cpn_display(e164, regions.description, &buffer, Int32(buffer.count)) == 1 else { return value }
        return String(nulTerminated: buffer)
    }

    // MARK: - Non public

    /// The mask's bytes, `_` for each national digit.
    private static let russianMaskBytes = Array("+7 (___) ___-__-__".utf8)

    /// The app's mask for a Russian number, which needs no parse.
    private static func russianMask(_ e164: String) -> String? {
        guard e164.hasPrefix("+7"), e164.utf8.count == 12 else { return nil }
        // Written byte by byte: most stored numbers come here, and
        // interpolating the five pieces cost a tenth of their reading.
        return String(unsafeUninitializedCapacity: russianMaskBytes.count) { buffer in
            var digits = e164.utf8.dropFirst(2).makeIterator()
            for (offset, byte) in russianMaskBytes.enumerated() {
                buffer[offset] = byte == UInt8(ascii: "_") ? digits.next()! : byte
            }
            return russianMaskBytes.count
        }
    }

    /// The E.164 form and, when `displaying`, the displayed one: a plain
    /// Russian number's without a parse (``plainRussian(_:)``), else on
    /// libphonenumber's lean path.
    static func read(_ value: String, regions: PhoneRegions, displaying: Bool) -> (e164: String?, display: String?) {
        if let e164 = plainRussian(value) { return (e164, displaying ? russianMask(e164) : nil) }
        return readByLibphonenumber(value, regions: regions, displaying: displaying)
    }

    /// The E.164 form of a number written as "+7" and ten digits with
    /// only spaces, dashes, dots and brackets among them, the first not 0
    /// or 8: whatever the digits, libphonenumber reads it as country code 7
    /// and those ten digits (it would strip a leading national prefix 8,
    /// and a leading 0 it keeps apart), and the app's mask shows it. Such
    /// numbers are most of a Russian address book, and a parse costs tens
    /// of microseconds; the tests check this against libphonenumber.
    package static func plainRussian(_ value: String) -> String? {
        var digits: [UInt8] = []
        digits.reserveCapacity(12)
        var bytes = value.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "+") else { return nil }
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits.append(byte)
                if digits.count > 11 { return nil }
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"):
                continue
            default:
                return nil
            }
        }
        guard digits.count == 11, digits[0] == UInt8(ascii: "7"), digits[1] != UInt8(ascii: "0"),
              digits[1] != UInt8(ascii: "8") else { return nil }
        return "+" + String(decoding: digits, as: UTF8.self)
    }

    /// The E.164 form and, when `displaying`, the displayed one, on
    /// libphonenumber's lean path: every stored number and every phone
    /// filter is read this way, so it skips the number's type and every
    /// form it does not need.
    static func readByLibphonenumber(
        _ value: String, regions: PhoneRegions, displaying: Bool
    ) -> (e164: String?, display: String?) {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 128) { buffer in
            buffer.initialize(repeating: 0)
            let e164 = buffer.baseAddress!, shown = e164 + 64
            let isWrittenWithPlus = value.hasPrefix("+")
            // A number without "+" counts only where it is valid; one with
            // it, wherever it parses.
            func isKnown(_ request: UnsafePointer<cpn_display_request>?) -> Bool {
                func read(_ region: String) -> Int32 {
                    cpn_e164(value, region, isWrittenWithPlus ? 0 : 1, e164, 64, request)
                }
                return isWrittenWithPlus ? read("ZZ") != 0 : regions.codes.contains { read($0) == 1 }
            }
            guard displaying else { return (isKnown(nil) ? String(cString: e164) : nil, nil) }
            let known = regions.description.withCString { codes in
                // The mask shows Russian numbers without libphonenumber.
                var request = cpn_display_request(
                    regions: codes, forInvalid: isWrittenWithPlus ? 1 : 0, exceptCountry: 7, shown: shown, capacity: 64)
                return isKnown(&request)
            }
            guard known else { return (nil, nil) }
            let form = String(cString: e164)
            if let masked = russianMask(form) { return (form, masked) }
            // A +7 number the mask does not fit was left unformatted.
            return (form, shown.pointee != 0 ? String(cString: shown) : display(value: value, e164: form, regions: regions))
        }
    }

    private static func parsed(_ value: String, regions: PhoneRegions) -> cpn_number? {
        var number = cpn_number()
        guard !value.hasPrefix("+") else { return cpn_parse(value, "ZZ", 1, &number) == 1 ? number : nil }
        var first: cpn_number?
        for region in regions.codes where cpn_parse(value, region, 1, &number) == 1 {
            if number.isValid == 1 { return number }
            if first == nil { first = number }
        }
        return first
    }

    /// The text of one of `cpn_number`'s fixed-size `char` arrays, which
    /// Swift imports as tuples: read from the tuple's own bytes, so this is
    /// for those fields only (an Array's bytes are its header).
    private static func text<T>(ofCField field: T) -> String {
        withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

extension Phone {
    /// The number as an address book shows it, by the database's default
    /// regions (``ContactStore/phoneRegions()``): as stored with it when it
    /// was read from the database, which spares a list libphonenumber.
    public func displayValue(regions: PhoneRegions) -> String {
        display ?? PhoneNumber.display(value: value, e164: e164, regions: regions)
    }
}
