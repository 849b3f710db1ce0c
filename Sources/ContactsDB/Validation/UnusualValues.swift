/// What an import kept that typed input would refuse (docs/vcard.md, "vCard
/// and CSV"), counted so that the import can say so in one line.
public struct UnusualValues: Hashable, Sendable {
    /// Phones typed input would refuse (short codes, extensions, …).
    public var phones = 0
    /// Emails typed input would refuse (a dotless domain, …).
    public var emails = 0
    /// Messengers of services beyond the five the filters know.
    public var messengers = 0
    /// Contacts with no first name, last name or company.
    public var unnamedContacts = 0
    /// Photos that cannot be decoded, kept as given without a thumbnail.
    public var undecodablePhotos = 0
    /// Messengers without a handle, which reach no one: not stored.
    public var emptyMessengers = 0

    /// Nothing counted yet.
    public init() {}

    /// Whether nothing was counted.
    public var isEmpty: Bool { self == UnusualValues() }

    /// True when only ``emptyMessengers`` were counted, which were left
    /// out rather than kept.
    public var keptNothingUnusual: Bool { var kept = self; kept.emptyMessengers = 0; return kept.isEmpty }

    mutating func add(_ other: UnusualValues) {
        phones += other.phones
        emails += other.emails
        messengers += other.messengers
        unnamedContacts += other.unnamedContacts
        undecodablePhotos += other.undecodablePhotos
        emptyMessengers += other.emptyMessengers
    }

    /// "4 phone numbers, 1 email address and 2 contacts without a name":
    /// what was kept (``emptyMessengers`` were not).
    public var summary: String {
        let parts = [(phones, "phone number", "phone numbers"), (emails, "email address", "email addresses"),
                     (messengers, "messenger of another service", "messengers of other services"),
                     (unnamedContacts, "contact without a first name, last name or company",
                      "contacts without a first name, last name or company"),
                     (undecodablePhotos, "undecodable photo (no thumbnail)", "undecodable photos (no thumbnails)")]
            .filter { $0.0 > 0 }.map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }
        guard let last = parts.last else { return "" }
        return parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + " and " + last
    }
}
