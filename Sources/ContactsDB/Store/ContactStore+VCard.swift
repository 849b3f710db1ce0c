import Foundation
import GRDB

/// What a vCard import did.
public struct VCardImport: Sendable {
    public var imported = 0
    /// Cards skipped (only with `skippingInvalid`), each with where it was
    /// and why.
    public var skippedCards: [String] = []
    /// vCard properties the model does not hold (BDAY, NOTE, PHOTO, …),
    /// with how often each appeared.
    public var unheldProperties: [String: Int] = [:]
    /// IMPP schemes that are not one of the five services, with counts.
    public var unknownMessengers: [String: Int] = [:]
}

extension ContactStore {
    /// Imports the cards of vCard files (2.1, 3.0 or 4.0; one or many cards
    /// each), in one transaction.
    ///
    /// - parameter skippingInvalid: skip a card that cannot be read (or
    ///   whose id is taken) and report it; otherwise such a card fails the
    ///   whole import, which then writes nothing.
    public func importVCards(_ files: [(source: String, data: Data)], skippingInvalid: Bool = false) throws -> VCardImport {
        var reader = VCardReader()
        var report = VCardImport()
        var cards: [VCardReader.Card] = []
        for file in files {
            cards += reader.cards(in: file.data, source: file.source, firstPosition: cards.count)
        }
        report.unheldProperties = reader.unheldProperties
        report.unknownMessengers = reader.unknownMessengers
        try write { db in
            let writer = try ContactWriter(db)
            let now = Timestamp.string(from: Date())
            for card in cards {
                do {
                    let draft = try card.result.get()
                    _ = try writer.insert(draft, at: "card \(card.position + 1) (line \(card.line))", now: now)
                    report.imported += 1
                } catch let error as ContactsDBError where skippingInvalid {
                    report.skippedCards.append(error.localizedDescription)
                }
            }
        }
        return report
    }
}

/// The formats `import` reads, told apart by content, not by file name.
public enum ImportFormat: Sendable {
    case json, vCard

    public init(of data: Data) {
        self = VCardReader.isVCard(data) ? .vCard : .json
    }
}
