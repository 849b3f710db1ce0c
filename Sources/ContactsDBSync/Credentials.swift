import ContactsDB
import Foundation

extension Credentials {
    /// The credentials for `remote`, read now from where it says: an
    /// environment variable, a file (less one trailing newline), or
    /// `~/.netrc`'s entry for the host. Nil when `~/.netrc` has none: the
    /// requests then go without credentials.
    static func read(for remote: Remote, host: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> Credentials?
    {
        switch remote.password {
        case .environment(let variable):
            guard let password = environment[variable] else {
                throw ContactsDBError.invalidRemote(.passwordVariableUnset(variable: variable, remote: remote.name))
            }
            return Credentials(username: remote.username ?? "", password: password)
        case .file(let path):
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ContactsDBError.unreadableFile(path: path, reason: "the password file cannot be read")
            }
            var password = String(decoding: data, as: UTF8.self)
            if password.hasSuffix("\r\n") { password.removeLast(2) } else if password.hasSuffix("\n") { password.removeLast() }
            return Credentials(username: remote.username ?? "", password: password)
        case .netrc:
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            guard let text = try? String(contentsOfFile: (home as NSString).appendingPathComponent(".netrc"), encoding: .utf8),
                  let entry = Netrc.entry(in: text, host: host)
            else { return nil }
            return Credentials(username: remote.username ?? entry.login ?? "", password: entry.password ?? "")
        }
    }
}

/// `~/.netrc` as curl and ftp read it: `machine HOST login USER password
/// PASS` entries, else a `default` one; `macdef` bodies skipped.
package enum Netrc {
    package static func entry(in text: String, host: String) -> (login: String?, password: String?)? {
        var tokens = tokenize(text)[...]
        var entries: [(machine: String?, login: String?, password: String?)] = []
        while let token = tokens.popFirst() {
            switch token {
            case "machine": entries.append((tokens.popFirst() ?? "", nil, nil))
            case "default": entries.append((nil, nil, nil))
            case "login", "password", "account":
                let value = tokens.popFirst()
                guard !entries.isEmpty else { continue }
                if token == "login" { entries[entries.count - 1].login = value }
                if token == "password" { entries[entries.count - 1].password = value }
            default: continue
            }
        }
        let host = host.lowercased()
        let match = entries.first { $0.machine?.lowercased() == host } ?? entries.first { $0.machine == nil }
        return match.map { ($0.login, $0.password) }
    }

    /// White-space separated tokens, double-quoted ones with backslash
    /// escapes; a `macdef` runs to the next empty line.
    private static func tokenize(_ text: String) -> [String] {
        var tokens: [String] = []
        for paragraph in text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n") {
            var current = "", inQuotes = false, isEscaped = false, hasToken = false
            func flush() -> Bool {
                defer { current = ""; hasToken = false }
                guard hasToken else { return true }
                tokens.append(current)
                return current != "macdef"
            }
            scan: for character in paragraph {
                if isEscaped {
                    current.append(character); isEscaped = false
                } else if character == "\\" {
                    isEscaped = true; hasToken = true
                } else if character == "\"" {
                    inQuotes.toggle(); hasToken = true
                } else if character.isWhitespace && !inQuotes {
                    if !flush() { tokens.removeLast(); break scan }
                } else {
                    current.append(character); hasToken = true
                }
            }
            if hasToken, !flush() { tokens.removeLast() }
        }
        return tokens
    }
}
