import Foundation
import CPhoneNumber

/// What libphonenumber makes of a number, as `contactsdb phone` shows it.
public struct PhoneNumberDescription: Hashable, Sendable, Encodable {
    /// libphonenumber's E164, NATIONAL and INTERNATIONAL formats.
    public var e164, national, international: String
    /// The region the number belongs to (`RU`), if libphonenumber knows it.
    public var region: String?
    /// libphonenumber's PhoneNumberType name (`MOBILE`, `FIXED_LINE`, …).
    public var type: String
    /// Whether libphonenumber counts the number valid for its region.
    public var valid: Bool
}
