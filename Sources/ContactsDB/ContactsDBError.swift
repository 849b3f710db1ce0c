import Foundation

/// What can go wrong in the engine.
///
/// Each case's `errorDescription` is one sentence that names what was wrong
/// and says what to do next. The wording is for people, not for parsing.
public enum ContactsDBError: Error, LocalizedError, Equatable, Sendable {
    /// A field of a contact breaks a rule of validation (docs/cli.md,
    /// "Editing"). `field` is the JSON path of the field
    /// (`contacts[3].phones[0].value`).
    case invalidContact(field: String, reason: String)
    /// Input that is not well-formed JSON, with where it broke (1-based).
    case malformedJSON(file: String, line: Int, column: Int, reason: String)
    /// An input file that is missing or cannot be read.
    case unreadableFile(path: String, reason: String)
    /// A file that cannot be written whole (a full disk, no permission, a
    /// symbolic link or special file where a new file should go).
    case unwritableFile(path: String, reason: String)
    /// Standard output refused the result (a full disk, /dev/full).
    case unwritableOutput(reason: String)
    /// Bytes given as a contact's photo that the engine does not take.
    case invalidPhoto(PhotoProblem)
    /// One or more ids that name no contact.
    case contactsNotFound(ids: [String])
    /// A contact without a photo, or without a thumbnail (its photo was
    /// imported as given and could not be decoded).
    case photoNotFound(id: String, thumbnail: Bool)
    /// A group name that names no group.
    case groupNotFound(name: String)
    /// A group name already taken (names are compared without case).
    case groupExists(name: String)
    /// Several books have a group of this name, and none was named.
    case ambiguousGroup(name: String, books: [String])
    /// A merge of fewer than two distinct contacts.
    case tooFewToMerge(ids: [String])
    /// A link of fewer than two distinct contacts.
    case tooFewToLink(ids: [String])
    /// Contacts of one book given to a link: one book holds one card of a
    /// person, so they are duplicates to merge.
    case linkWithinBook(ids: [String], book: String)
    /// Contacts of several books given to a merge, which would delete a
    /// card from another account's server.
    case mergeAcrossBooks(ids: [String], books: [String])
    /// A merge record id that names no merge (never made, or taken back).
    case mergeNotFound(id: Int)
    /// A merged contact cannot come back: a contact with its id exists.
    case mergedContactExists(mergeID: Int, id: String)
    /// An id given to a new contact that another contact already has.
    case duplicateContactID(field: String, id: String)
    /// An imported contact whose id a contact of the database already has,
    /// where the import adds only (``ExistingContacts/fail``).
    case contactExists(field: String, id: String)
    /// The database holds migrations this build does not know.
    case databaseTooNew(path: String, unknownMigrations: [String])
    /// A migration recorded in the database differs from this build's file.
    case migrationEdited(path: String, migration: String)
    /// A migration failed; it was rolled back and the database stays at the
    /// last migration that succeeded.
    case migrationFailed(migration: String, reason: String)
    /// Migration records that do not add up: one removed, another tool's,
    /// a record table of another shape. Nothing was written.
    case migrationRecordsDamaged(path: String, reason: String)
    /// A file that is not SQLite, or SQLite that is not a contacts database.
    case notContactsDatabase(path: String, reason: String)
    /// The database cannot be opened or written (permissions, missing
    /// directory, read-only file system).
    case databaseUnavailable(path: String, reason: String)
    /// Another process kept the database locked past the busy timeout.
    case databaseBusy(path: String)
    /// Another sync of the database ran past the busy timeout.
    case syncRunning(path: String)
    /// The disk ran out of space during a write, which was rolled back.
    case diskFull(path: String)
    /// Any other failure of the underlying database.
    case databaseFailure(reason: String)
    /// A contact changed after the revision the caller last read, so the
    /// write was refused (another writer got there first).
    case revisionConflict(id: String, expected: Int, current: Int)
    /// A change token that this database did not issue (or cannot read).
    case foreignChangeToken(token: String)
    /// A change token older than the history `compact` kept.
    case expiredChangeToken(token: String)
    /// A remote option or URL that cannot be used (plain http to another
    /// host, a second remote, a missing password variable).
    case invalidRemote(RemoteProblem)
    /// No remote by that name, or none at all.
    case remoteNotFound(name: String?)
    /// The remote cannot be reached, or answered with a server error.
    case remoteUnavailable(url: String, reason: String)
    /// The remote answered with something a sync cannot read: no WebDAV
    /// multistatus, or more bytes than a sync reads.
    case remoteAnswerUnreadable(url: String, reason: String)
    /// The remote refused the credentials.
    case remoteRefusedCredentials(url: String)
    /// No sync conflict has that id.
    case conflictNotFound(id: Int)
    /// An address book that cannot be used as asked.
    case invalidBook(BookProblem)
    /// No deleted contact in the trash has these ids.
    case notInTrash(ids: [String])
    /// A contact in the trash cannot come back under its id: another
    /// contact has it now.
    case restoredIDInUse(id: String)
    /// The contact's history holds no version of that revision;
    /// `available` lists those it holds, newest first.
    case revisionNotInHistory(id: String, revision: Int, available: [Int])

    /// One sentence: the problem, then the advice.
    public var errorDescription: String? { sentence(advice: advice) }

    /// The problem and `advice` as one sentence; a caller that knows
    /// better advice (a command line naming its command) gives its own.
    public func sentence(advice: String?) -> String {
        let sentence = problem + (advice.map { "; " + $0 } ?? "")
        return sentence.hasSuffix(".") ? sentence : sentence + "."
    }

    /// What is wrong, in the library's terms (no command or option names).
    public var problem: String {
        switch self {
        case let .invalidContact(field, reason):
            return "\(field): \(reason)"
        case let .malformedJSON(file, line, column, reason):
            return "\(file):\(line):\(column): not valid JSON: \(reason)"
        case let .unreadableFile(path, reason):
            return "Cannot read \(path): \(reason)"
        case let .unwritableFile(path, reason):
            return "Cannot write \(path): \(reason)"
        case let .unwritableOutput(reason):
            return "Cannot write the output: \(reason)"
        case let .invalidPhoto(problem):
            return problem.sentence
        case let .contactsNotFound(ids):
            let list = ids.map { "\"\($0)\"" }.joined(separator: ", ")
            return ids.count == 1 ? "No contact has the id \(list)" : "No contacts have the ids \(list)"
        case let .photoNotFound(id, thumbnail):
            return thumbnail
                ? "The contact \"\(id)\" has no thumbnail: it has no photo, or one that could not be decoded"
                : "The contact \"\(id)\" has no photo"
        case let .groupNotFound(name):
            return "No group is named \"\(name)\""
        case let .ambiguousGroup(name, books):
            return "The books \(books.map { "\"\($0)\"" }.joined(separator: ", ")) each have a group \"\(name)\""
        case let .groupExists(name):
            return "A group named \"\(name)\" already exists (names are compared without case)"
        case let .tooFewToMerge(ids):
            return "A merge needs two or more distinct contacts; it was given \(Set(ids).count)"
        case let .tooFewToLink(ids):
            return "A link needs two or more distinct contacts; it was given \(Set(ids).count)"
        case let .linkWithinBook(ids, book):
            return "The contacts \(ids.map { "\"\($0)\"" }.joined(separator: ", ")) are all in the book \"\(book)\", "
                + "and a link joins cards of different books"
        case let .mergeAcrossBooks(ids, books):
            return "The contacts \(ids.map { "\"\($0)\"" }.joined(separator: ", ")) are in different books "
                + "(\(books.map { "\"\($0)\"" }.joined(separator: ", "))), and a merge would delete a card from another account's server"
        case let .mergeNotFound(id):
            return "There is no merge \(id)"
        case let .mergedContactExists(mergeID, id):
            return "Merge \(mergeID) cannot be taken back: a contact with the id \"\(id)\" exists again"
        case let .duplicateContactID(field, id):
            return "\(field): the id \"\(id)\" is already taken by another contact"
        case let .contactExists(field, id):
            return "\(field): a contact with the id \"\(id)\" is already here"
        case let .databaseTooNew(path, unknown):
            return "\(path) was written by a newer contactsdb (unknown migrations: \(unknown.joined(separator: ", ")))"
        case let .migrationEdited(path, migration):
            return "\(path) recorded migration \(migration) with a different checksum than this build's file"
        case let .migrationFailed(migration, reason):
            return "Migration \(migration) failed and was rolled back (\(reason))"
        case let .migrationRecordsDamaged(path, reason):
            return "The migration records of \(path) are damaged (\(reason)), so it was left untouched"
        case let .notContactsDatabase(path, reason):
            return "\(path) is not a contacts database (\(reason))"
        case let .databaseUnavailable(path, reason):
            return "Cannot open the database \(path): \(reason)"
        case let .databaseBusy(path):
            return "The database \(path) is busy: another process kept it locked past the busy timeout"
        case let .syncRunning(path):
            return "Another sync of \(path) is running"
        case let .diskFull(path):
            return "The disk holding \(path) is full, so nothing was written"
        case let .databaseFailure(reason):
            return "The database failed: \(reason)"
        case let .revisionConflict(id, expected, current):
            return "The contact \"\(id)\" was changed after revision \(expected) (it is at revision \(current) now), so nothing was changed"
        case let .foreignChangeToken(token):
            return "The change token \"\(token)\" is not one of this database's"
        case let .expiredChangeToken(token):
            return "The change token \"\(token)\" is older than the change history kept since the last compaction"
        case let .invalidRemote(problem):
            return problem.problem
        case let .remoteNotFound(name?):
            return "There is no remote named \"\(name)\""
        case .remoteNotFound(nil):
            return "This database has no remote"
        case let .remoteAnswerUnreadable(url, reason):
            return "The remote \(url) answered what a sync cannot read: \(reason)"
        case let .remoteUnavailable(url, reason):
            return "The remote \(url) failed: \(reason)"
        case let .remoteRefusedCredentials(url):
            return "The remote \(url) refused the credentials"
        case let .invalidBook(problem):
            return problem.problem
        case let .conflictNotFound(id):
            return "There is no sync conflict \(id)"
        case let .notInTrash(ids):
            let list = ids.map { "\"\($0)\"" }.joined(separator: ", ")
            return ids.count == 1 ? "The trash holds no contact with the id \(list)" : "The trash holds no contacts with the ids \(list)"
        case let .restoredIDInUse(id):
            return "Another contact has the id \"\(id)\" now, so the deleted one cannot come back under it"
        case let .revisionNotInHistory(id, revision, available):
            return "The history of \"\(id)\" holds no revision \(revision); it holds "
                + available.map(String.init).joined(separator: ", ")
        }
    }

    /// What to do next, in the library's terms; a command line adds its
    /// own (the command that lists the ids) where it knows better.
    public var advice: String? {
        switch self {
        case .malformedJSON: return "fix the file and try again"
        case .contactsNotFound(let ids) where ids.count > 1: return "nothing was changed"
        case .groupExists: return "choose another name"
        case .ambiguousGroup: return "name the book too"
        case .linkWithinBook: return "merge them instead; nothing was changed"
        case .mergeAcrossBooks: return "link them instead, which shows them as one person and keeps both cards; nothing was changed"
        case .mergedContactExists: return "delete or rename that contact first; nothing was changed"
        case .notInTrash: return "nothing was changed"
        case .restoredIDInUse: return "restore it as a new contact with a new id instead; nothing was changed"
        case .duplicateContactID: return "give another id or leave it out"
        case .contactExists: return "update or skip the contacts already here; nothing was imported"
        case .databaseTooNew: return "use that newer build to open it"
        case .migrationEdited: return "a shipped migration was edited, so restore it and add a new migration instead"
        case .migrationFailed: return "the database stays at the last good version"
        case .migrationRecordsDamaged: return "restore it from a backup"
        case .databaseBusy: return "try again later"
        case .syncRunning: return "let it finish (or end it), then sync again"
        case .diskFull: return "free some space and try again"
        case .revisionConflict: return "read it again and retry"
        case .foreignChangeToken, .expiredChangeToken: return "read the changes again from scratch"
        case let .invalidRemote(problem): return problem.advice
        case let .invalidBook(problem): return problem.advice
        case .remoteAnswerUnreadable: return "check the URL, then sync again"
        case .remoteUnavailable: return "check the URL and that the server is up, then sync again"
        case .remoteRefusedCredentials: return "check the username and the password's source, then sync again"
        default: return nil
        }
    }
}

extension ContactsDBError {
    /// Why a remote cannot be used.
    public enum RemoteProblem: Equatable, Sendable {
        /// Text that is no URL.
        case notAURL(String)
        /// A URL of a scheme other than http and https.
        case notHTTP(String)
        /// A username or password in the URL, which would be stored.
        case credentialsInURL
        /// Plain http to a host other than this machine.
        case plainHTTP(host: String)
        /// The environment variable said to hold the password is not set.
        case passwordVariableUnset(variable: String, remote: String)
        /// No address book of that name; the server's are listed.
        case noAddressBookNamed(String, available: [String])
        /// The server has several address books and none was chosen.
        case severalAddressBooks([String])

        var problem: String {
            switch self {
            case let .notAURL(text): return "\"\(text)\" is not a URL"
            case let .notHTTP(text): return "\"\(text)\" is not an http or https URL"
            case .credentialsInURL: return "The URL holds a username or a password, which would be stored and shown with it"
            case let .plainHTTP(host): return "Plain http is refused for \(host), which is not this machine"
            case let .passwordVariableUnset(variable, remote):
                return "The environment variable \(variable), which holds the password of the remote \"\(remote)\", is not set"
            case let .noAddressBookNamed(name, available):
                return "The server has no address book named \"\(name)\"; it has \(Self.list(available))"
            case let .severalAddressBooks(names): return "The server has several address books (\(Self.list(names)))"
            }
        }

        var advice: String? {
            switch self {
            case .notAURL, .notHTTP: return "give the address book's or the server's https URL"
            case .credentialsInURL: return "give them apart from the URL"
            case .plainHTTP: return "use https"
            case .passwordVariableUnset: return "set it and try again"
            case .severalAddressBooks: return "choose one by name"
            case .noAddressBookNamed: return nil
            }
        }

        private static func list(_ names: [String]) -> String {
            names.isEmpty ? "none" : names.map { "\"\($0)\"" }.joined(separator: ", ")
        }
    }
}

extension ContactsDBError {
    /// Why a photo was refused (docs/cli.md, "Photos").
    public enum PhotoProblem: Equatable, Sendable {
        /// No image format is recognised in the bytes.
        case notAnImage
        /// An image format the engine does not take ("SVG", "PDF", "AVIF").
        case unsupportedType(String)
        /// More bytes than a photo may have.
        case tooLarge(bytes: Int, limit: Int)
        /// More pixels than a photo may have, as its header declares them.
        case tooManyPixels(width: Int, height: Int, limit: Int)
        /// A recognised format whose data is truncated or corrupt.
        case undecodable(format: String, reason: String)

        var sentence: String {
            let formats = "JPEG, PNG, GIF, HEIC or WebP"
            switch self {
            case .notAnImage:
                return "The photo is not an image; give a \(formats) file."
            case let .unsupportedType(format):
                return "The photo is \(format), which is not taken; give a \(formats) file."
            case let .tooLarge(bytes, limit):
                return "The photo has \(bytes) bytes, more than the \(limit) a photo may have; give a smaller file."
            case let .tooManyPixels(width, height, limit):
                return "The photo is \(width) by \(height) pixels, more than the \(limit) a photo may have; give a smaller image."
            case let .undecodable(format, reason):
                return "The photo's \(format) data is truncated or corrupt (\(reason)); give the file again whole."
            }
        }
    }
}

extension ContactsDBError {
    /// Why an address book cannot be used as asked (docs/cli.md, "Address
    /// books").
    public enum BookProblem: Equatable, Sendable {
        /// No book has this name.
        case notFound(String)
        /// A book has this name already, in some case.
        case exists(String)
        /// A name that is empty or holds a control character.
        case invalidName(String)
        /// The book holds contacts, which would go with it.
        case notEmpty(name: String, contacts: Int)
        /// The default book cannot be deleted.
        case isDefault(String)
        /// A collection bound to a book already.
        case collectionBound(url: String, book: String)
        /// The book is bound to a remote already.
        case hasRemote(name: String, url: String)
        /// A book given as its own destination.
        case sameBook(String)
        /// A contact and a group of different books: a group holds only
        /// contacts of its own book.
        case contactInOtherBook(id: String, book: String, group: String, groupBook: String)

        var problem: String {
            switch self {
            case let .notFound(name): return "There is no address book named \"\(name)\""
            case let .exists(name): return "An address book named \"\(name)\" exists already"
            case let .invalidName(name):
                return "\"\(name)\" cannot name an address book: a name is one line of visible text"
            case let .notEmpty(name, contacts):
                return "The address book \"\(name)\" holds \(contacts) contact\(contacts == 1 ? "" : "s")"
            case let .isDefault(name): return "The address book \"\(name)\" is the default and cannot be deleted"
            case let .collectionBound(url, book): return "The address book at \(url) is bound to the book \"\(book)\" already"
            case let .hasRemote(name, url): return "The book \"\(name)\" syncs with \(url) already"
            case let .sameBook(name): return "The contacts are in the book \"\(name)\" already"
            case let .contactInOtherBook(id, book, group, groupBook):
                return "The contact \"\(id)\" is in the book \"\(book)\", and the group \"\(group)\" is in \"\(groupBook)\""
            }
        }

        var advice: String? {
            switch self {
            case .notFound: return "list the books to see their names"
            case .exists: return "choose another name"
            case .invalidName: return nil
            case .notEmpty: return "move them to another book first, or delete them"
            case .isDefault: return "make another book the default first"
            case .collectionBound: return "a collection syncs with one book"
            case .hasRemote: return "remove that remote first"
            case .sameBook: return "nothing was changed"
            case .contactInOtherBook: return "a group holds contacts of its own book only"
            }
        }
    }
}
