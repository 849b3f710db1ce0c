import Foundation

/// A directory of its own for one test, removed when the value goes away.
public final class TemporaryDirectory {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("contactsdb-tests-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to a file in the directory and returns its path.
    public func write(_ name: String, _ text: String) -> String {
        let path = path(name)
        try! Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
