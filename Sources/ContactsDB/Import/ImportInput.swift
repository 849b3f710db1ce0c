import Foundation

/// Something to import: a file, read through a memory map whose pages are
/// handed back as the import moves on, or bytes already in memory. Its
/// format (JSON, vCard or CSV) is read from its content, not its name.
public enum ImportInput: Sendable {
    /// A file; `source` names it in errors when its own name would not
    /// (stdin copied to a temporary file).
    case file(path: String, source: String? = nil)
    /// Bytes in memory; `source` names them in errors.
    case data(Data, source: String)

    /// The name errors give the input: a file's last path component.
    var source: String {
        switch self {
        case .file(let path, let source): return source ?? (path as NSString).lastPathComponent
        case .data(_, let source): return source
        }
    }

    /// Runs `body` with the input's bytes.
    func withBytes<T>(_ body: (ContactsInput) throws -> T) throws -> T {
        switch self {
        case .file(let path, _):
            return try body(ContactsInput(try MappedFile(path: path), source: source))
        case .data(let data, let source):
            return try ContactsInput.with(data, source: source, body)
        }
    }

    /// Its size in bytes, for progress; 0 when it cannot be read (the
    /// import then fails on it, naming it).
    var byteCount: Int {
        switch self {
        case .file(let path, _):
            // stat follows a link (stdin's copy is read through /proc/self/fd).
            var status = stat()
            return stat(path, &status) == 0 ? Int(status.st_size) : 0
        case .data(let data, _):
            return data.count
        }
    }
}

/// What an import does with a contact whose id the database already
/// holds.
public enum ExistingContacts: String, Sendable, CaseIterable {
    /// The import fails on the first such contact and writes nothing.
    case fail
    /// The card as read replaces the stored contact; one equal to it is not
    /// written, so its revision does not move.
    case update
    /// The stored contact stays as it is.
    case skip
}

/// What an import did.
public struct ImportReport: Sendable {
    /// Contacts added.
    public var imported = 0
    /// Existing contacts replaced by a different card (``ExistingContacts/update``).
    public var updated = 0
    /// Existing contacts equal to their card, left unwritten (``ExistingContacts/update``).
    public var unchanged = 0
    /// Existing contacts left as they were (``ExistingContacts/skip``).
    public var skippedExisting = 0
    /// Group cards taken in as groups.
    public var groups = 0
    /// Records skipped (only when skipping invalid ones), each with where
    /// it was and why.
    public var skipped: [String] = []
    /// vCard properties the model does not hold, kept verbatim as extra
    /// properties, and CSV columns no field holds, kept as `X-` properties,
    /// with how often each appeared.
    public var extraProperties: [String: Int] = [:]
    /// What was kept that typed input would refuse.
    public var unusual = UnusualValues()
    /// Where the import's time went.
    public var phases = ImportPhases()
}

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
