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

/// The formats `import` reads, told apart by content, not by file name.
public enum ImportFormat: Sendable {
    case json, vCard

    public init(of data: Data) {
        self = VCardReader.isVCard(data) ? .vCard : .json
    }
}
