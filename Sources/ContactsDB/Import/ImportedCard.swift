import Foundation

/// One vCard another address book holds (a card a sync pulls), read and
/// checked as `import` reads and checks each card: kept whenever it can
/// be read, tidied, never refused for what typed input would refuse.
package enum ImportedCard {
    package static func draft(vCard data: Data, source: String) throws -> ContactDraft {
        try prepared(vCard: data, source: source, regions: .default).draft
    }

    /// The card validated and derived as the import pipeline does each
    /// contact (``ImportPipeline/validatedAndDerived(_:at:regions:)``).
    package static func prepared(vCard data: Data, source: String, regions: PhoneRegions) throws
        -> (draft: ContactDraft, derived: DerivedFields)
    {
        var reader = VCardReader()
        // The card that begins first: one holding cards nested without
        // AGENT ends after them.
        var first: VCardReader.Card?
        ContactsInput.with(data, source: source) { input in
            reader.forEachCard(in: input.bytes, source: source) { card, _ in
                if first.map({ card.number < $0.number }) ?? true { first = card }
            }
        }
        guard let first = first?.result else { throw ContactsDBError.invalidContact(field: source, reason: "it holds no vCard.") }
        var (draft, derived, _) = try ImportPipeline.validatedAndDerived(try first.get(), at: source, regions: regions)
        // As the database stores it, so that it compares equal to itself
        // read back.
        draft.formattedName = DerivedFields.keptFormattedName(draft)
        return (draft, derived)
    }
}
