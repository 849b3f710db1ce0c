import ContactsDB
import Foundation
import Hummingbird

/// A request the endpoints cannot read (a filter that is no filter).
struct RequestError: Error, LocalizedError {
    var sentence: String
    init(_ sentence: String) { self.sentence = sentence }
    var errorDescription: String? { sentence }
}

/// A failure as the page shows it: the store's sentence, the field it
/// names (`phones[0].value`) so the form can put it there, and the HTTP
/// status that says what kind of failure it was.
struct ErrorAnswer: Encodable {
    var error: String
    var field: String?
    var status: HTTPResponse.Status

    enum CodingKeys: CodingKey { case error, field }

    init(_ error: Error) {
        self.error = (error as? LocalizedError)?.errorDescription ?? "Unexpected failure: \(error)."
        // Any error may reach here, so this switch cannot be exhaustive;
        // the store's, the one family with many kinds, is mapped below.
        switch error {
        case let error as ContactsDBError: (status, field) = (Self.status(error), Self.field(error))
        case is RequestError, is DecodingError: status = .badRequest
        case let error as HTTPError: status = error.status
        default: status = .internalServerError
        }
    }

    /// The one place a store's error meets an HTTP status. Every case is
    /// named, so that a new one does not compile until it has a status.
    static func status(_ error: ContactsDBError) -> HTTPResponse.Status {
        switch error {
        case .invalidContact, .invalidPhoto, .malformedJSON, .duplicateContactID, .contactExists, .groupExists:
            .unprocessableContent
        case .contactsNotFound, .photoNotFound, .groupNotFound, .remoteNotFound, .conflictNotFound, .mergeNotFound,
             .notInTrash, .revisionNotInHistory:
            .notFound
        case .revisionConflict, .mergedContactExists, .restoredIDInUse: .conflict
        case .invalidBook, .invalidRemote, .ambiguousGroup, .tooFewToMerge, .tooFewToLink, .linkWithinBook,
             .mergeAcrossBooks, .foreignChangeToken, .expiredChangeToken:
            .badRequest
        case .remoteUnavailable, .remoteAnswerUnreadable, .remoteRefusedCredentials: .badGateway
        case .databaseBusy, .syncRunning, .databaseUnavailable: .serviceUnavailable
        // The server's own files and database: nothing the page sent.
        case .unreadableFile, .unwritableFile, .unwritableOutput, .databaseTooNew, .migrationEdited, .migrationFailed,
             .migrationRecordsDamaged, .notContactsDatabase, .diskFull, .databaseFailure:
            .internalServerError
        }
    }

    /// The form field an error is about, for the page to show it there;
    /// every case named, as in ``status(_:)``.
    static func field(_ error: ContactsDBError) -> String? {
        switch error {
        case let .invalidContact(field, _), let .duplicateContactID(field, _): field
        case .invalidPhoto: "photo"
        case .invalidBook: "book"
        case .malformedJSON, .unreadableFile, .unwritableFile, .unwritableOutput, .contactsNotFound, .photoNotFound,
             .groupNotFound, .groupExists, .ambiguousGroup, .tooFewToMerge, .tooFewToLink, .linkWithinBook,
             .mergeAcrossBooks, .mergeNotFound, .mergedContactExists, .contactExists, .databaseTooNew,
             .migrationEdited, .migrationFailed, .migrationRecordsDamaged, .notContactsDatabase,
             .databaseUnavailable, .databaseBusy, .syncRunning, .diskFull, .databaseFailure, .revisionConflict,
             .foreignChangeToken, .expiredChangeToken, .invalidRemote, .remoteNotFound, .remoteUnavailable,
             .remoteAnswerUnreadable, .remoteRefusedCredentials, .conflictNotFound, .notInTrash, .restoredIDInUse,
             .revisionNotInHistory:
            nil
        }
    }
}
