import Foundation

/// A read-only memory map of an input file. As an import moves on, the pages
/// it has read are handed back to the kernel, so a file of any size costs
/// little resident memory; reading them again faults them back in from disk.
final class MappedFile {
    let bytes: UnsafeBufferPointer<UInt8>
    private let base: UnsafeMutableRawPointer?
    private var released = 0
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    /// Pages are handed back in steps of this many bytes.
    private static let releaseStep = 32 << 20

    init(path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw ContactsDBError.unreadableFile(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw ContactsDBError.unreadableFile(path: path, reason: "it is not a regular file")
        }
        let size = Int(status.st_size)
        guard size > 0 else {
            base = nil
            bytes = UnsafeBufferPointer(start: nil, count: 0)
            return
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw ContactsDBError.unreadableFile(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        madvise(mapped, size, MADV_SEQUENTIAL)
        base = mapped
        bytes = UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt8.self), count: size)
    }

    deinit {
        if let base { munmap(base, bytes.count) }
    }

    /// Hands back the pages wholly before `offset`.
    func release(upTo offset: Int) {
        guard let base, offset - released >= Self.releaseStep else { return }
        let end = offset / Self.pageSize * Self.pageSize
        madvise(base + released, end - released, MADV_DONTNEED)
        released = end
    }
}
