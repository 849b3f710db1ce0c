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
        (try read(Reindexer.storedVersion), Collation.version)
    }
}
