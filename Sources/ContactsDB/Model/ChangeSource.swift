/// What wrote a change of a contact, as the trash and the history name it:
/// `add`, `update`, `delete`, `web`, `import FILE`, `sync:REMOTE`, `merge`,
/// `unmerge`, `move` or `restore`.
public struct ChangeSource: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static let add = ChangeSource(rawValue: "add")
    public static let update = ChangeSource(rawValue: "update")
    public static let delete = ChangeSource(rawValue: "delete")
    /// The web app (`serve`).
    public static let web = ChangeSource(rawValue: "web")
    public static let merge = ChangeSource(rawValue: "merge")
    public static let unmerge = ChangeSource(rawValue: "unmerge")
    public static let move = ChangeSource(rawValue: "move")
    public static let restore = ChangeSource(rawValue: "restore")

    /// An import of the file at `path`, as it was named.
    public static func `import`(file path: String) -> ChangeSource {
        ChangeSource(rawValue: "import \(path)")
    }

    /// A sync with the remote (the book) of this name.
    public static func sync(remote name: String) -> ChangeSource {
        ChangeSource(rawValue: "sync:\(name)")
    }
}
