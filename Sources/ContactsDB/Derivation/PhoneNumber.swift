/// A phone number read as SPEC §Semantics says: its digits, its E.164 form
/// where the country is known, and the form an address book displays.
struct PhoneNumber: Sendable {
    /// The number as entered, white space tidied.
    let value: String
    /// Every digit of the number, in order.
    let digits: String
    /// `+` and the country code and national number, where the country is
    /// known: an explicit `+`, Russian `8` + 10 digits, or a Korean domestic
    /// number.
    let e164: String?

    init(_ value: String) {
        self.value = Text.tidy(value)
        digits = String(self.value.unicodeScalars.filter { ("0"..."9").contains($0) })
        e164 = Self.makeE164(value: self.value, digits: digits)
    }

    /// What phone search and storage use: E.164, or the digits alone.
    var normalized: String { e164 ?? digits }

    /// The Russian mask for +7, the hyphenated Korean national form for +82
    /// (however the number was written), otherwise the number as stored.
    var display: String {
        guard let e164 else { return value }
        if e164.hasPrefix("+7"), e164.count == 12 {
            let national = Array(e164.dropFirst(2))
            return "+7 (\(String(national[0..<3]))) \(String(national[3..<6]))-\(String(national[6..<8]))-\(String(national[8..<10]))"
        }
        if e164.hasPrefix("+82"), let national = Self.koreanNationalForm("0" + e164.dropFirst(3)) {
            return national
        }
        return value
    }

    // MARK: - Non public

    private static func makeE164(value: String, digits: String) -> String? {
        if value.hasPrefix("+") {
            // libphonenumber drops a trunk 0 written after +82.
            if digits.hasPrefix("820") { return "+82" + digits.dropFirst(3) }
            return "+" + digits
        }
        if digits.count == 11, digits.hasPrefix("8") { return "+7" + digits.dropFirst() }
        if koreanAreaCode(of: digits) != nil { return "+82" + digits.dropFirst() }
        return nil
    }

    /// The area or mobile prefix of a Korean domestic number (`010`, `02`,
    /// `031`, `070`, …) followed by 7 or 8 digits, or nil.
    private static func koreanAreaCode(of national: String) -> Substring? {
        let scalars = Array(national.utf8)
        guard scalars.first == UInt8(ascii: "0"), scalars.count >= 3 else { return nil }
        let second = scalars[1], third = scalars[2]
        let prefixLength: Int
        switch (second, third) {
        case (UInt8(ascii: "2"), _):
            prefixLength = 2
        case (UInt8(ascii: "1"), _), (UInt8(ascii: "7"), UInt8(ascii: "0")):
            prefixLength = 3
        case (UInt8(ascii: "3")...UInt8(ascii: "6"), UInt8(ascii: "1")...UInt8(ascii: "5")):
            prefixLength = 3
        default:
            return nil
        }
        let rest = scalars.count - prefixLength
        guard rest == 7 || rest == 8 else { return nil }
        return national.prefix(prefixLength)
    }

    /// `010-1234-5678`, `02-123-4567`, `031-1234-5678`, and the nationwide
    /// service numbers `1588-1234` (15XX, 16XX, 18XX), which have no trunk 0.
    private static func koreanNationalForm(_ national: String) -> String? {
        let service = national.dropFirst()
        if service.count == 8, ["15", "16", "18"].contains(service.prefix(2)) {
            return "\(service.prefix(4))-\(service.suffix(4))"
        }
        guard let area = koreanAreaCode(of: national) else { return nil }
        let subscriber = national.dropFirst(area.count)
        let exchange = subscriber.dropLast(4)
        return "\(area)-\(exchange)-\(subscriber.suffix(4))"
    }
}

extension Phone {
    /// The number in E.164 form, where its country is known.
    public var e164: String? { PhoneNumber(value).e164 }

    /// The number as an address book shows it: the Russian mask for +7,
    /// the hyphenated national form for +82, otherwise as stored.
    public var displayValue: String { PhoneNumber(value).display }
}
