import Foundation

/// A remote's groups following what its address book holds rather than
/// what it was told.
public struct GroupConventionChange: Hashable, Sendable {
    /// What `remote add --groups` named.
    public var named: GroupConvention
    /// What the address book holds, now the remote's.
    public var found: GroupConvention

    /// A change from the convention named to the one found.
    public init(named: GroupConvention, found: GroupConvention) {
        (self.named, self.found) = (named, found)
    }
}
