import ArgumentParser
import ContactsDB
import Foundation

/// The exit codes (docs/cli.md, "Exit codes") and the sentence printed for
/// each failure: the one place errors meet them.
///
/// ArgumentParser's own errors (usage, `--help`, `ExitCode`) keep its
/// handling; every other error becomes one sentence and a sysexits code,
/// and what no case here names exits 70 saying it was unexpected.
struct ExitStatus: Equatable {
    var code: Int32
    /// The first line on stderr, without the "Error: " prefix.
    var message: String

    static let unexpected: Int32 = 70
    /// Nothing named or searched for was found.
    static let notFound: Int32 = 1

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    init(_ error: Error) {
        switch error {
        case let error as ContactsDBError:
            self.init(code: error.exitCode, message: error.sentence(advice: error.commandLineAdvice ?? error.advice))
        case let .helperUnavailable(path, commands, reason) as CommandLineError:
            // EX_UNAVAILABLE, as for a remote that cannot be reached.
            self.init(code: 69, message: "Cannot run \(path), which runs \(commands): \(reason); install it beside contactsdb.")
        case let .cannotListen(port, reason) as CommandLineError:
            self.init(code: 69, message: "Cannot serve on 127.0.0.1:\(port): \(reason); choose another --port.")
        case let error as CocoaError:
            self.init(error)
        default:
            self.init(code: Self.unexpected, message: "Unexpected failure: \(Self.describe(error)); please report it.")
        }
    }

    /// Foundation's file errors, which name the file; raw domain text
    /// (`NSCocoaErrorDomain …`) is never shown.
    private init(_ error: CocoaError) {
        let path = error.filePath ?? error.url?.path ?? "the file"
        let reason = (error.underlying as? POSIXError).map { String(cString: strerror($0.code.rawValue)) }
            ?? "it cannot be accessed"
        if error.isFileError, error.code.rawValue >= CocoaError.fileWriteUnknown.rawValue {
            self.init(code: 74, message: ContactsDBError.unwritableFile(path: path, reason: reason).localizedDescription)
        } else if error.isFileError {
            self.init(code: 66, message: ContactsDBError.unreadableFile(path: path, reason: reason).localizedDescription)
        } else {
            self.init(code: Self.unexpected, message: "Unexpected failure: Foundation error \(error.code.rawValue); please report it.")
        }
    }

    /// Whether ArgumentParser reports `error` itself: usage errors (64,
    /// with the usage lines), `--help`, `--version` and explicit exit codes.
    /// Its parse errors are of an internal type, known by their module.
    static func isArgumentParserError(_ error: Error) -> Bool {
        error is ValidationError || error is CleanExit || error is ExitCode
            || String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
    }

    private static func describe(_ error: Error) -> String {
        let text = (error as? LocalizedError)?.errorDescription ?? String(describing: error)
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}

extension ContactsDBError {
    /// The advice where this command line knows better than the library:
    /// the command or option that helps.
    var commandLineAdvice: String? {
        switch self {
        case let .contactsNotFound(ids) where ids.count == 1: return "`contactsdb query` lists the ids"
        case .photoNotFound(_, thumbnail: false): return "`contactsdb photo set` gives it one"
        case .groupNotFound: return "`contactsdb group list` lists the groups"
        case .ambiguousGroup: return "name it with --book"
        case .contactExists:
            return "import with --existing update to replace the contacts already here or --existing skip to keep them; nothing was imported"
        case .notContactsDatabase: return "pass another --db path"
        case .foreignChangeToken, .expiredChangeToken:
            return "sync again from scratch with `contactsdb changes` without --since"
        case .invalidRemote(.credentialsInURL):
            return "give the username with --username and the password with --password-env, --password-file or ~/.netrc, not in the URL"
        case let .invalidBook(.hasRemote(name, _)): return "remove it first with `contactsdb remote remove \(name)`"
        case .invalidRemote(.severalAddressBooks): return "choose one with --addressbook NAME"
        case .remoteNotFound(_?): return "`contactsdb remote list` lists them"
        case .invalidBook(.notFound): return "`contactsdb book list` lists them"
        case .invalidBook(.notEmpty): return "move them first with `book delete NAME --move-to BOOK`, or delete them"
        case .invalidBook(.isDefault): return "make another book the default first with `contactsdb book default NAME`"
        case .remoteNotFound(nil): return "add one with `contactsdb remote add NAME URL`"
        case .conflictNotFound: return "`contactsdb conflicts` lists them"
        case .mergeNotFound: return "`contactsdb merges` lists them"
        case .notInTrash: return "`contactsdb trash` lists what it holds; nothing was changed"
        case .restoredIDInUse: return "restore it with --as-new, which gives it a new id and UID; nothing was changed"
        case let .linkWithinBook(ids, _):
            return "merge them instead with `contactsdb merge \(ids.joined(separator: " "))`; nothing was changed"
        case let .mergeAcrossBooks(ids, _):
            return "link them instead with `contactsdb link \(ids.joined(separator: " "))`, which shows them as one person "
                + "and keeps both cards; nothing was changed"
        default: return nil
        }
    }

    /// The exit code for each case (docs/cli.md, "Exit codes").
    var exitCode: Int32 {
        switch self {
        case .contactsNotFound, .photoNotFound, .groupNotFound, .remoteNotFound, .conflictNotFound, .mergeNotFound,
             .mergedContactExists, .notInTrash, .restoredIDInUse, .revisionNotInHistory:
            return 1
        case .invalidRemote, .invalidBook, .ambiguousGroup, .tooFewToMerge, .tooFewToLink, .linkWithinBook,
             .mergeAcrossBooks:
            return 64
        // sysexits' EX_UNAVAILABLE and EX_NOPERM.
        case .remoteUnavailable, .remoteAnswerUnreadable: return 69
        case .remoteRefusedCredentials: return 77
        case .invalidContact, .invalidPhoto, .malformedJSON, .duplicateContactID, .contactExists, .groupExists,
             .foreignChangeToken, .expiredChangeToken:
            return 65
        case .unreadableFile: return 66
        case .databaseTooNew, .migrationEdited, .migrationRecordsDamaged, .notContactsDatabase, .databaseUnavailable, .databaseBusy, .syncRunning,
             .diskFull, .unwritableFile, .unwritableOutput:
            return 74
        case .migrationFailed, .databaseFailure: return 70
        // sysexits' EX_TEMPFAIL: read the contact again and retry.
        case .revisionConflict: return 75
        }
    }
}

/// Failures of the command line itself rather than of the library.
package enum CommandLineError: Error {
    /// A helper (`contactsdb-sync`, `contactsdb-serve`) is not beside
    /// `contactsdb`, or cannot be run.
    case helperUnavailable(path: String, commands: String, reason: String)
    /// `serve` cannot listen on the port (taken, or not allowed).
    case cannotListen(port: Int, reason: String)
}
