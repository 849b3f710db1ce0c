import Foundation

/// A file that appears at its path whole or not at all.
///
/// Every file the engine writes goes through here: the bytes go to a new
/// temporary sibling (created with `O_EXCL`, mode 0600, never through a
/// symbolic link), every `write` and the `close` are checked, the data is
/// `fsync`ed, and only then is the file renamed into place. A process
/// killed midway leaves at most a hidden `.NAME.*.tmp` beside the target,
/// never a truncated target that a later reader would take for whole.
///
/// ```swift
/// let file = try AtomicFile(path: "cards/ivan.vcf")
/// try file.write("BEGIN:VCARD\r\n…")
/// try file.commit(replacingExisting: true)
/// ```
///
/// A writer that is not this process (SQLite's backup) may fill
/// ``temporaryPath`` itself before ``commit(replacingExisting:syncing:)``.
///
/// Failures throw ``ContactsDBError/unwritableFile(path:reason:)`` naming
/// the target path; an uncommitted file's temporary sibling is removed.
public final class AtomicFile {
    /// Where the file appears once committed.
    public let path: String
    /// The temporary sibling the bytes go to first.
    public let temporaryPath: String
    private var descriptor: Int32
    private var isFinished = false

    /// Creates the temporary sibling of `path`, readable by its owner only.
    public init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: .min ... .max), radix: 36)
            let candidate = (directory as NSString).appendingPathComponent(".\(url.lastPathComponent).\(suffix).tmp")
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 {
                self.descriptor = descriptor
                temporaryPath = candidate
                return
            }
            guard errno == EEXIST else { throw Self.failure(path, errno) }
        }
        throw ContactsDBError.unwritableFile(path: path, reason: "no temporary file could be created beside it")
    }

    deinit { discard() }

    /// Appends `text` as UTF-8.
    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write($0) }
    }

    /// Appends `data`.
    public func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0.bindMemory(to: UInt8.self)) }
    }

    private func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Foundation.write(descriptor, next, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw Self.failure(path, errno)
            }
            next += written
            remaining -= written
        }
    }

    /// Makes the file durable and puts it at ``path``.
    ///
    /// - parameters:
    ///   - replacingExisting: whether a file already at ``path`` is
    ///     replaced (a symbolic link there is replaced, never followed);
    ///     when false, an existing file stays and this throws.
    ///   - syncing: whether the data reaches the disk before the rename.
    ///     A writer of many small files passes false and calls
    ///     ``syncFileSystems()`` once at the end: a killed
    ///     process still never leaves a partial file (the rename comes
    ///     after the last checked write), and one sync instead of one per
    ///     file keeps thousands of files from taking minutes.
    public func commit(replacingExisting: Bool, syncing: Bool = true) throws {
        defer { discard() }
        if syncing, fsync(descriptor) != 0 { throw Self.failure(path, errno) }
        let closed = close(descriptor)
        descriptor = -1
        guard closed == 0 else { throw Self.failure(path, errno) }
        if replacingExisting {
            guard rename(temporaryPath, path) == 0 else { throw Self.failure(path, errno) }
        } else if link(temporaryPath, path) == 0 {
            // link(2) fails with EEXIST instead of replacing, atomically.
            unlink(temporaryPath)
        } else if errno == EEXIST {
            throw ContactsDBError.unwritableFile(path: path, reason: "a file is already there; choose a new path")
        } else if [EPERM, EOPNOTSUPP, EMLINK].contains(errno) {
            // A file system without hard links (FAT, some network mounts):
            // check, then rename, which leaves a small window instead.
            var status = stat()
            guard lstat(path, &status) != 0 else {
                throw ContactsDBError.unwritableFile(path: path, reason: "a file is already there; choose a new path")
            }
            guard rename(temporaryPath, path) == 0 else { throw Self.failure(path, errno) }
        } else {
            throw Self.failure(path, errno)
        }
        isFinished = true
        if syncing { syncDirectory() }
    }

    /// Flushes every file written to the disk (sync(2), which on Linux
    /// returns once the data is written), for writers that committed
    /// without syncing each file.
    public static func syncFileSystems() {
        sync()
    }

    /// Removes the temporary file unless it was committed.
    public func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        guard !isFinished else { return }
        isFinished = true
        unlink(temporaryPath)
    }

    /// Makes the rename itself durable. Some file systems refuse to sync a
    /// directory; the file is in place either way, so that is not an error.
    private func syncDirectory() {
        let directory = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return }
        _ = fsync(directory)
        close(directory)
    }

    static func failure(_ path: String, _ code: Int32) -> ContactsDBError {
        .unwritableFile(path: path, reason: String(cString: strerror(code)))
    }
}
