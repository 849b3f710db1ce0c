import Foundation
import GRDB

extension ContactStore {
    /// Recomputes every contact's derived fields — sortName, sectionKey,
    /// sortIndex, sort keys, name words, folded search text and phone forms
    /// — in one transaction, and records the collation that computed them.
    ///
    /// - returns: how many contacts were reindexed.
    @discardableResult
    public func reindex() throws -> Int {
        try write(Reindexer.reindexAll)
    }

    /// The collation that computed the stored keys, and this build's.
    public func collationVersions() throws -> (stored: String?, current: String) {
        (try read(Reindexer.storedVersion), DerivedFields.version)
    }
}

extension ContactStore {
    // MARK: - Phone regions

    /// The regions numbers written without "+" are read in, in order
    /// (docs/model.md, "Order, sections and phone numbers"): `RU,KR` unless
    /// set.
    public func phoneRegions() throws -> PhoneRegions {
        try read(Settings.phoneRegions)
    }

    /// Sets the default phone regions and re-normalizes every number by
    /// them, in one transaction.
    ///
    /// - returns: how many contacts were reindexed.
    @discardableResult
    public func setPhoneRegions(_ regions: PhoneRegions) throws -> Int {
        try write { db in
            try Settings.set(Settings.phoneRegionsKey, to: regions.description, db)
            return try Reindexer.reindexAll(db)
        }
    }

    /// What libphonenumber makes of `number`, read in this database's
    /// default regions; nil when it cannot be read as a number at all.
    public func describePhone(_ number: String) throws -> PhoneNumberDescription? {
        PhoneNumber.describe(number, regions: try phoneRegions())
    }
}
