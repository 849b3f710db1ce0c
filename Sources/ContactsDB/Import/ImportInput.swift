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
