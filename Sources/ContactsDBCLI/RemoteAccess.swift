import ContactsDB
import Foundation

/// The two commands that reach the network: `remote add` and `sync`.
///
/// The network stack (SwiftNIO, TLS, the HTTP client) is linked into the
/// helper `contactsdb-sync` alone, so that no other command pays for
/// loading it. `contactsdb` parses these commands like any other, then
/// hands the whole command line over to the helper, which provides this
/// and runs it, as git runs `git-foo` (``Helper``).
package protocol RemoteAccess: Sendable {
    func addRemote(_ remote: Remote, addressBook: String?, timeout: Double, to store: ContactStore) throws -> Remote
    func sync(_ store: ContactStore, remote: String, prefer: SyncPreference, dryRun: Bool, timeout: Double,
              progress: @escaping (Int, Int) -> Void) throws -> SyncReport
}

/// An executable installed beside `contactsdb` that runs the commands
/// needing what `contactsdb` does not link: `contactsdb-sync` (the network
/// stack) and `contactsdb-serve` (a web server as well). `contactsdb` runs
/// it in this process's place with the same arguments, so its output,
/// exit code and signals are the command's own.
struct Helper {
    var name: String
    /// The commands it runs, as its error names them.
    var commands: String

    static let sync = Helper(name: "contactsdb-sync", commands: "`remote add` and `sync`")
    static let serve = Helper(name: "contactsdb-serve", commands: "`serve`")

    /// Where the helper is: beside the executable as its path resolves
    /// (a symbolic link to `contactsdb` in `~/bin` still finds it).
    var path: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(name).path
    }

    func handOver() throws -> Never {
        let helper = path
        let arguments = [helper] + CommandLine.arguments.dropFirst()
        var argv = arguments.map { strdup($0) } + [nil]
        execv(helper, &argv)
        let reason = String(cString: strerror(errno))
        throw CommandLineError.helperUnavailable(path: helper, commands: commands, reason: reason)
    }
}
