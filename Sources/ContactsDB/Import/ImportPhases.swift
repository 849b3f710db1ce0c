import Foundation

/// Where an import's time went, in seconds. The reading thread (`parse`),
/// the deriving ones (`validateAndDerive`) and the writing one (`write`)
/// run at once on shared cores, so each of these counts the processor
/// time its threads spent, summed over the deriving ones; the steps after
/// the last row (`indexBuild`, `commit`, and what `searchIndex` leaves
/// until then) run alone and count the time they took.
public struct ImportPhases: Sendable, Codable, Equatable {
    /// Reading the input into drafts (JSON, vCard or CSV syntax and fields).
    public var parse = 0.0
    /// Checking the drafts and computing their derived fields (sort keys,
    /// folded words, phone forms, thumbnails), summed over the threads.
    public var validateAndDerive = 0.0
    /// Inserting the rows, with what the triggers kept in step add.
    public var write = 0.0
    /// Rebuilding the secondary indexes a large import deferred.
    public var indexBuild = 0.0
    /// Catching the deferred search indexes up (the text's, the phone
    /// digits' and windows): by the writing thread as it goes, and after
    /// the last row.
    public var searchIndex = 0.0
    /// Committing the transaction, its checkpoint included.
    public var commit = 0.0

    /// No time spent yet.
    public init() {}
}
