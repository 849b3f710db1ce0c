import Foundation

/// A directory of one `.vcf` file per contact, as khard and vdirsyncer
/// keep them. Each card is written whole through ``AtomicFile`` (mode
/// 0600) and renamed over an earlier card of the same name; the file
/// system is synced once at the end. A symbolic
/// link or special file (FIFO, device) at a card's name is refused before
/// any card is written: a rename would not follow it, but it is not a card
/// this command wrote, so replacing it is not the command's to decide.
package struct CardDirectory {
    package let path: String

    /// Creates the directory, and refuses it before any card is written
    /// when a card of `names` would land on a link or special file.
    package init(path: String, names: [String]) throws {
        self.path = path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ContactsDBError.unwritableFile(path: path, reason: "the directory cannot be created there")
        }
        for name in names {
            let card = cardPath(name)
            var status = stat()
            guard lstat(card, &status) == 0 else { continue }
            let kind = status.st_mode & S_IFMT
            if kind == S_IFLNK {
                throw ContactsDBError.unwritableFile(
                    path: card, reason: "a symbolic link is there, which export never follows; remove it or choose another directory")
            }
            if kind != S_IFREG {
                throw ContactsDBError.unwritableFile(
                    path: card, reason: "a special file (not a regular file) is there; remove it or choose another directory")
            }
        }
    }

    package func write(_ text: String, named name: String) throws {
        let file = try AtomicFile(path: cardPath(name))
        try file.write(text)
        try file.commit(replacingExisting: true, syncing: false)
    }

    private func cardPath(_ id: String) -> String {
        (path as NSString).appendingPathComponent(CardFileName.of(id))
    }
}
