import Foundation

/// One vCard another address book holds (a card a sync pulls), read and
/// checked as `import` reads and checks each card: kept whenever it can
/// be read, tidied, never refused for what typed input would refuse.
package enum ImportedCard {
    /// A card read: a contact's, validated and derived, or a group card.
    package enum Read: Sendable {
        case contact(ContactDraft, DerivedFields)
        case group(GroupCard)
    }

    /// The card's contact, as ``read(vCard:source:regions:)`` reads it; a
    /// group card reads as its contact would have before group cards were
    /// groups.
    package static func draft(vCard data: Data, source: String) throws -> ContactDraft {
        try validated(try parsed(vCard: data, source: source), at: source, regions: .default).draft
    }

    /// The card as the import pipeline takes it in: a group card as its
    /// group, any other validated and derived as the pipeline does each
    /// contact (``ImportPipeline/validatedAndDerived(_:at:regions:)``).
    package static func read(vCard data: Data, source: String, regions: PhoneRegions) throws -> Read {
        let parsed = try parsed(vCard: data, source: source)
        if let group = GroupCard(parsed) { return .group(try ImportPipeline.checked(group, at: source)) }
        let (draft, derived) = try validated(parsed, at: source, regions: regions)
        return .contact(draft, derived)
    }

    // MARK: - Non public

    /// The card that begins first: one holding cards nested without AGENT
    /// ends after them.
    private static func parsed(vCard data: Data, source: String) throws -> ContactDraft {
        var reader = VCardReader()
        var first: VCardReader.Card?
        ContactsInput.with(data, source: source) { input in
            reader.forEachCard(in: input.bytes, source: source) { card, _ in
                if first.map({ card.number < $0.number }) ?? true { first = card }
            }
        }
        guard let first = first?.result else { throw ContactsDBError.invalidContact(field: source, reason: "it holds no vCard.") }
        return try first.get()
    }

    private static func validated(_ parsed: ContactDraft, at source: String, regions: PhoneRegions) throws
        -> (draft: ContactDraft, derived: DerivedFields)
    {
        var (draft, derived, _) = try ImportPipeline.validatedAndDerived(parsed, at: source, regions: regions)
        // As the database stores it, so that it compares equal to itself
        // read back.
        draft.formattedName = DerivedFields.keptFormattedName(draft)
        return (draft, derived)
    }
}
