import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The database file as a file: what may be opened, its mode, and the lock
/// that serializes creating, migrating and first seeding across processes.
///
/// Every failure is a ``ContactsDBError`` with a sentence, never a
/// Foundation error.
package enum DatabaseFile {
    /// Refuses anything but a regular file or a missing path in an existing
    /// directory (SQLite would otherwise write `/dev/zero-journal`), creates
    /// a missing file readable by its owner only, and takes group and other
    /// permissions away from an existing one of ours and its side files.
    package static func prepare(_ path: String) throws {
        if try checkExisting(path) {
            makeOwnerOnly(path, followingLinks: true)
            for side in ["-wal", "-shm"] { makeOwnerOnly(path + side, followingLinks: false) }
            return
        }
        // O_EXCL: a file another process created meanwhile is left as it is.
        // SQLite gives the -wal and -shm files the database file's mode.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno == EEXIST {
            _ = try checkExisting(path)  // created meanwhile
        } else {
            throw ContactsDBError.databaseUnavailable(path: path, reason: "it cannot be created: \(reason(errno))")
        }
    }

    /// True when `path` is a regular file (or a link to one), false when
    /// nothing is there and its directory exists; throws otherwise.
    package static func checkExisting(_ path: String) throws -> Bool {
        guard !path.isEmpty else {
            throw ContactsDBError.databaseUnavailable(path: path, reason: "the path is empty; give the path of a database file")
        }
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                let kind = info.st_mode & S_IFMT == S_IFDIR ? "a directory" : "a device, pipe or socket"
                throw ContactsDBError.databaseUnavailable(path: path, reason: "it is \(kind), not a database file; give the path of a file")
            }
            return true
        }
        let failure = errno
        // A link to nothing: SQLite would follow it and create a file of
        // another mode somewhere else.
        if failure == ENOENT, lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFLNK else { return try checkExisting(path) }  // created meanwhile
            throw ContactsDBError.databaseUnavailable(path: path, reason: "it is a symbolic link to nothing; remove it or give another path")
        }
        let directory = directoryOf(path)
        guard failure == ENOENT, stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw ContactsDBError.databaseUnavailable(path: path, reason: failure == ENOENT
                ? "the directory \(directory) does not exist" : reason(failure))
        }
        return false
    }

    /// The file at `path`, by device and inode; nil when there is none.
    package static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// Throws when `path` no longer names the file opened (`identity`): a
    /// write to a database deleted or replaced under a running process
    /// would go to a file no one can open again, and be lost unsaid.
    package static func requireStill(_ identity: [UInt64], at path: String) throws {
        guard Self.identity(path) == identity else {
            throw ContactsDBError.databaseUnavailable(
                path: path, reason: "the file was deleted or replaced after it was opened, so a change would be lost; start again")
        }
    }

    /// Throws unless this process may write the file and create files
    /// beside it (the journal, the backup taken before migrating, the lock).
    package static func requireWritable(_ path: String) throws {
        guard access(path, W_OK) == 0, access(directoryOf(path), W_OK | X_OK) == 0 else {
            throw ContactsDBError.databaseUnavailable(
                path: path, reason: "it is read-only and needs changes this build makes on first use; make the file and its directory writable")
        }
    }

    /// An exclusive `flock` on `PATH-lock` beside the database, waiting at
    /// most `timeout` seconds. SQLite's own write lock cannot be held across
    /// the several transactions of an open (each migration in its own, the
    /// switch to WAL outside any), nor before the file has a schema; this
    /// one is, and the kernel releases it when a process dies.
    package final class Lock {
        private let descriptor: Int32

        /// - parameter suffix: `-lock` for what opening does; a sync holds
        ///   its own, so that two syncs never run at once.
        package init(beside path: String, suffix: String = "-lock", timeout: TimeInterval) throws {
            let lockPath = DatabaseFile.canonical(path) + suffix
            var descriptor = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor < 0, errno == EACCES {
                descriptor = open(lockPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)  // another user's lock file
            }
            guard descriptor >= 0 else {
                throw ContactsDBError.databaseUnavailable(path: path, reason: "its lock file \(lockPath) cannot be opened: \(reason(errno))")
            }
            let deadline = Date(timeIntervalSinceNow: timeout)
            var pause: useconds_t = 1_000
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let failure = errno
                guard failure == EWOULDBLOCK || failure == EINTR else {
                    close(descriptor)
                    throw ContactsDBError.databaseUnavailable(path: path, reason: "its lock file \(lockPath) cannot be locked: \(reason(failure))")
                }
                guard Date() < deadline else {
                    close(descriptor)
                    throw ContactsDBError.databaseBusy(path: path)
                }
                usleep(pause)
                pause = min(pause * 2, 50_000)
            }
            self.descriptor = descriptor
        }

        deinit {
            close(descriptor)  // releases the lock
        }
    }

    // MARK: - Non public

    /// Group and other permissions taken away from a regular file this
    /// process's user owns; anything else is left alone. Side files are
    /// looked at without following links: SQLite would not follow them.
    private static func makeOwnerOnly(_ file: String, followingLinks: Bool) {
        var info = stat()
        guard (followingLinks ? stat(file, &info) : lstat(file, &info)) == 0,
              info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(), info.st_mode & 0o077 != 0
        else { return }
        chmod(file, info.st_mode & 0o700)
    }

    /// The real path, so that two names of one file (a symbolic link) share
    /// one lock.
    private static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func directoryOf(_ path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    package static func reason(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: return "permission denied"
        case EROFS: return "the file system is read-only"
        case ENOSPC: return "the disk is full"
        case ENOTDIR: return "a part of the path is not a directory"
        case ELOOP: return "it is a symbolic link, which is not followed here"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
