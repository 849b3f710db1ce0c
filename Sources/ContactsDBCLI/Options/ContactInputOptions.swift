import ArgumentParser
import ContactsDB
import Foundation

/// The fields `add` and `update` take, from flags or from `--json`.
struct ContactInputOptions: ParsableArguments {
    @Option(help: "First name.") var firstName: String?
    @Option(help: "Last name.") var lastName: String?
    @Option(help: "Company.") var company: String?
    @Option(help: "Age, a whole number from 0 to 999.") var age: Int?
    @Option(help: "Middle name.") var middleName: String?
    @Option(help: "Nickname.") var nickname: String?
    @Option(help: "Job title.") var jobTitle: String?
    @Option(help: ArgumentHelp("Birthday: YYYY-MM-DD, or --MM-DD when the year is unknown.", valueName: "date"))
    var birthday: String?
    @Option(help: "A note (up to 64 KiB).") var note: String?

    @Option(name: .customLong("phone"), help: ArgumentHelp(
        "A phone number, optionally labelled (mobile, home, work, main, other, or your own). Repeatable.",
        valueName: "[type:]number"))
    var phones: [String] = []

    @Option(name: .customLong("email"), help: ArgumentHelp("An email address, optionally labelled. Repeatable.",
                                                           valueName: "[type:]address"))
    var emails: [String] = []

    @Option(name: .customLong("messenger"), help: ArgumentHelp(
        "A messenger: telegram, whatsapp, viber, signal or threema, and the handle. Repeatable.",
        valueName: "service:handle"))
    var messengers: [String] = []

    @Option(name: .customLong("json"), help: ArgumentHelp("Read the contact from a JSON file, or - for stdin.",
                                                          valueName: "file"))
    var jsonFile: String?

    var hasFieldFlags: Bool {
        firstName != nil || lastName != nil || company != nil || age != nil || !detailFlags.isEmpty
            || !phones.isEmpty || !emails.isEmpty || !messengers.isEmpty
    }

    /// The options of the whole card's texts (``DetailText`` with the
    /// `option` role), by key.
    var detailOptions: [String: String?] {
        ["middleName": middleName, "nickname": nickname, "jobTitle": jobTitle, "birthday": birthday, "note": note]
    }

    /// The whole card's fields given as flags, with where they go.
    private var detailFlags: [(WritableKeyPath<ContactDetails, String?>, String)] {
        let given = detailOptions
        return DetailText.with(.option).compactMap { text in given[text.key].flatMap { $0 }.map { (text.field, $0) } }
    }

    func validate() throws {
        if jsonFile != nil && hasFieldFlags {
            throw ValidationError("Please give either --json or field options such as --first-name, not both.")
        }
        for messenger in messengers where !messenger.contains(":") {
            throw ValidationError("Please write --messenger as SERVICE:HANDLE, e.g. telegram:@ivan (got \"\(messenger)\").")
        }
    }

    /// Sets the fields named by flags; a list flag replaces the whole list.
    func apply(to draft: inout ContactDraft) {
        if let firstName { draft.firstName = firstName }
        if let lastName { draft.lastName = lastName }
        if let company { draft.company = company }
        if let age { draft.age = age }
        for (keyPath, value) in detailFlags { draft.details[keyPath: keyPath] = value }
        if !phones.isEmpty {
            draft.phones = phones.map { let (type, value) = Self.labelled($0); return Phone(type: type, value: value) }
        }
        if !emails.isEmpty {
            draft.emails = emails.map { let (type, value) = Self.labelled($0); return Email(type: type, value: value) }
        }
        if !messengers.isEmpty {
            draft.messengers = messengers.map { text in
                let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                return Messenger(service: String(parts[0]), handle: parts.count > 1 ? String(parts[1]) : "")
            }
        }
    }

    /// `work:+7 912 …` → ("work", "+7 912 …"); no label → ("", value),
    /// which validation reads as the default label.
    private static func labelled(_ text: String) -> (String, String) {
        guard let colon = text.firstIndex(of: ":") else { return ("", text) }
        let label = text[..<colon]
        guard !label.isEmpty, !label.contains(where: { $0.isNumber || $0 == "+" || $0 == "@" || $0 == "(" })
        else { return ("", text) }
        return (String(label), String(text[text.index(after: colon)...]))
    }
}

/// Reading input files: a path, or "-" for stdin.
enum InputFile {
    /// Most bytes read from stdin for a contact's JSON: far more than any
    /// contact holds, far less than memory.
    static let stdinLimit = 64 << 20

    /// The file's bytes, memory-mapped where possible so that a large file
    /// is not read into memory at once; from stdin, at most `limit` bytes
    /// and one more, so that what reads them can say the input is too long
    /// without holding all of it.
    static func read(_ path: String, limit: Int = stdinLimit) throws -> Data {
        if path == "-" {
            var data = Data()
            do {
                while data.count <= limit,
                      let chunk = try FileHandle.standardInput.read(upToCount: min(1 << 16, limit + 1 - data.count)),
                      !chunk.isEmpty {
                    data += chunk
                }
            } catch {
                throw ContactsDBError.unreadableFile(path: "stdin", reason: "it could not be read (\(error.localizedDescription))")
            }
            return data
        }
        try checkReadable(path)
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw ContactsDBError.unreadableFile(path: path, reason: "permission denied or I/O error")
        }
    }

    /// Throws, before anything is opened or written, when `path` (not "-")
    /// is missing, a directory, or not readable.
    static func checkReadable(_ path: String) throws {
        guard path != "-" else { return }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ContactsDBError.unreadableFile(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw ContactsDBError.unreadableFile(path: path, reason: "it is a directory")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ContactsDBError.unreadableFile(path: path, reason: "permission denied")
        }
    }

    /// Stdin copied to a temporary file, which an import then maps as it
    /// maps any file: memory stays bounded by the import's batch however
    /// much comes in. The file is unlinked as soon as it is made, so no
    /// exit, not even SIGKILL, leaves it behind (`body` reads it through
    /// /proc/self/fd). Input that can be no format is refused at its
    /// first byte that cannot be one (``StreamedInputCheck``), and the copy
    /// may take at most half the disk's free space, which the database
    /// needs beside it.
    static func spoolingStandardInput<T>(_ body: (String) throws -> T) throws -> T {
        let directory = NSTemporaryDirectory()
        let template = (directory as NSString).appendingPathComponent("contactsdb-stdin-XXXXXX")
        var name = Array(template.utf8CString)
        let descriptor = mkstemp(&name)
        guard descriptor >= 0 else {
            throw ContactsDBError.unreadableFile(path: "stdin", reason: "no temporary file could be made to read it into")
        }
        unlink(name)
        defer { close(descriptor) }
        var space = statvfs()
        let free = statvfs(directory, &space) == 0 ? Int(space.f_bavail) * Int(space.f_frsize) : Int.max
        let limit = free / 2
        var check = StreamedInputCheck(source: "stdin")
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var copied = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw ContactsDBError.unreadableFile(path: "stdin", reason: "it could not be read whole (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
            try buffer.withUnsafeBytes { try check.check(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            copied += count
            guard copied <= limit else {
                throw ContactsDBError.unwritableFile(
                    path: directory, reason: "stdin is larger than half its free space (\(limit >> 20) MB), which the import "
                        + "needs beside it; write the input to a file on a larger disk and import that file, or set TMPDIR")
            }
            try buffer.withUnsafeBytes { bytes in
                var written = 0
                while written < count {
                    let result = Glibc.write(descriptor, bytes.baseAddress! + written, count - written)
                    if result < 0 && errno == EINTR { continue }
                    guard result > 0 else {
                        throw ContactsDBError.unwritableFile(path: directory, reason: String(cString: strerror(errno)).lowercased())
                    }
                    written += result
                }
            }
        }
        try check.finish()
        return try body("/proc/self/fd/\(descriptor)")
    }

    static func displayName(_ path: String) -> String {
        path == "-" ? "stdin" : (path as NSString).lastPathComponent
    }
}
