import Foundation

/// Something to import: a file, read through a memory map whose pages are
/// handed back as the import moves on, or bytes already in memory. Its
/// format (JSON or vCard) is read from its content, not its name.
public enum ImportInput: Sendable {
    case file(path: String)
    case data(Data, source: String)

    /// The name errors give the input: a file's last path component.
    var source: String {
        switch self {
        case .file(let path): return (path as NSString).lastPathComponent
        case .data(_, let source): return source
        }
    }

    /// Runs `body` with the input's bytes.
    func withBytes<T>(_ body: (ContactsInput) throws -> T) throws -> T {
        switch self {
        case .file(let path):
            return try body(ContactsInput(try MappedFile(path: path), path: path))
        case .data(let data, let source):
            return try ContactsInput.with(data, source: source, body)
        }
    }

    /// Its size in bytes, for progress; 0 when it cannot be read (the
    /// import then fails on it, naming it).
    var byteCount: Int {
        switch self {
        case .file(let path):
            return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        case .data(let data, _):
            return data.count
        }
    }
}

/// What an import did.
public struct ImportReport: Sendable {
    public var imported = 0
    /// Records skipped (only when skipping invalid ones), each with where
    /// it was and why.
    public var skipped: [String] = []
    /// vCard properties the model does not hold, kept verbatim as extra
    /// properties, with how often each appeared.
    public var extraProperties: [String: Int] = [:]
    /// What was kept that typed input would refuse.
    public var unusual = UnusualValues()
}
