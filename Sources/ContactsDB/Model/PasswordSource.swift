import Foundation

/// Where a remote's password is read at each sync.
public enum PasswordSource: Hashable, Sendable {
    /// The value of this environment variable.
    case environment(String)
    /// The content of this file, less one trailing newline.
    case file(String)
    /// `~/.netrc`'s entry for the host; without one, no credentials.
    case netrc
}
