import Foundation

/// Everything the engine computes from a validated draft before writing it.
struct DerivedFields: Sendable {
    var displayName: String
    var sortName: String
    var sectionKey: String
    var sortIndex: Int
    var sortKey: Data
    var firstNameKey: Data?
    var lastNameKey: Data?
    var companyKey: Data?
    var companyFolded: String?
    var attributes: ContactAttributes
    /// The distinct folded words of the names, for the name-prefix filter.
    var nameWords: [Data]
    /// The same words, each after one space (`contact.nameWords`).
    var nameWordsText: String
    /// Per phone, its lookup form (E.164, or the digits).
    var phonesNormalized: [String]
    /// Per email, its folded value; per address, its folded city and country.
    var emailsFolded: [String]
    var addressesFolded: [(city: String, country: String)]

    /// The version of the rules below: stored with the keys, which are
    /// recomputed on open when it differs.
    static let version = Collation.version + "; phones by libphonenumber"

    init(_ draft: ContactDraft, regions: PhoneRegions) {
        let first = draft.firstName ?? "", last = draft.lastName ?? ""
        let writtenFamilyFirst = Self.isWrittenFamilyFirst(first + last)
        let separator = writtenFamilyFirst ? "" : " "
        let personal = [first, last].filter { !$0.isEmpty }
        if personal.isEmpty {
            displayName = draft.company ?? ""
            sortName = displayName
        } else {
            displayName = (writtenFamilyFirst ? personal.reversed() : personal).joined(separator: separator)
            sortName = personal.reversed().joined(separator: separator)
        }
        (sectionKey, sortIndex) = Collation.section(of: sortName)
        sortKey = Collation.key(sortName)
        firstNameKey = draft.firstName.map(Collation.key)
        lastNameKey = draft.lastName.map(Collation.key)
        companyKey = draft.company.map(Collation.key)
        companyFolded = draft.company.map(Collation.fold)
        attributes = ContactAttributes(draft)
        var words: [String] = []
        let names = [draft.firstName, draft.lastName, draft.company].compactMap { $0 }
        for word in names.map(Collation.fold).flatMap(Text.words).map(String.init) where !words.contains(word) {
            words.append(word)
        }
        nameWords = words.map { Data($0.utf8) }
        nameWordsText = words.map { " " + $0 }.joined()
        phonesNormalized = draft.phones.map { PhoneNumber($0.value, regions: regions).normalized }
        emailsFolded = draft.emails.map { Collation.fold($0.value) }
        addressesFolded = draft.addresses.map { (Collation.fold($0.city), Collation.fold($0.country)) }
    }

    /// Names written in Hangul, Han or kana put the family name first with
    /// no space, as address books there show them.
    private static func isWrittenFamilyFirst(_ name: String) -> Bool {
        name.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF,  // Hangul
                 0x3040...0x30FF,  // kana
                 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF:  // Han
                return true
            default:
                return false
            }
        }
    }
}

/// What a contact has, as the bit set stored in `contact.attributes`.
public struct ContactAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let phone = ContactAttributes(rawValue: 1 << 0)
    public static let email = ContactAttributes(rawValue: 1 << 1)
    public static let address = ContactAttributes(rawValue: 1 << 2)
    public static let telegram = ContactAttributes(rawValue: 1 << 3)
    public static let whatsapp = ContactAttributes(rawValue: 1 << 4)
    public static let viber = ContactAttributes(rawValue: 1 << 5)
    public static let signal = ContactAttributes(rawValue: 1 << 6)
    public static let threema = ContactAttributes(rawValue: 1 << 7)

    /// Any messenger service.
    public static let messengers: ContactAttributes = [.telegram, .whatsapp, .viber, .signal, .threema]

    /// Each attribute by the name the CLI and SPEC use (`phone`, `telegram`, …).
    public static let named: [(name: String, attribute: ContactAttributes)] = [
        ("phone", .phone), ("email", .email), ("address", .address),
        ("telegram", .telegram), ("whatsapp", .whatsapp), ("viber", .viber),
        ("signal", .signal), ("threema", .threema),
    ]

    init(_ draft: ContactDraft) {
        var attributes: ContactAttributes = []
        if !draft.phones.isEmpty { attributes.insert(.phone) }
        if !draft.emails.isEmpty { attributes.insert(.email) }
        if !draft.addresses.isEmpty { attributes.insert(.address) }
        for messenger in draft.messengers {
            if let entry = Self.named.first(where: { $0.name == messenger.service }) {
                attributes.insert(entry.attribute)
            }
        }
        self = attributes
    }
}
