import ContactsDB
import Foundation
import Hummingbird
import Testing
@testable import ContactsDBServer

/// ``ErrorAnswer``: the status of each kind of failure and the field it
/// names for the form.
@Suite struct ErrorAnswerTests {
    @Test func theStoresErrorsMapToTheStatusOfTheirKind() {
        let expected: [(ContactsDBError, HTTPResponse.Status)] = [
            (.invalidContact(field: "phones[0].value", reason: "r"), .unprocessableContent),
            (.contactsNotFound(ids: ["x"]), .notFound),
            (.revisionConflict(id: "x", expected: 1, current: 2), .conflict),
            (.restoredIDInUse(id: "x"), .conflict),
            (.tooFewToMerge(ids: ["x"]), .badRequest),
            (.remoteUnavailable(url: "u", reason: "r"), .badGateway),
            (.databaseBusy(path: "p"), .serviceUnavailable),
            (.diskFull(path: "p"), .internalServerError),
            (.databaseFailure(reason: "r"), .internalServerError),
        ]
        for (error, status) in expected {
            #expect(ErrorAnswer(error).status == status, "\(error)")
        }
    }

    @Test func aFieldIsNamedForTheFormsOwnErrorsOnly() {
        #expect(ErrorAnswer(ContactsDBError.invalidContact(field: "emails[1].value", reason: "r")).field == "emails[1].value")
        #expect(ErrorAnswer(ContactsDBError.duplicateContactID(field: "id", id: "x")).field == "id")
        #expect(ErrorAnswer(ContactsDBError.contactsNotFound(ids: ["x"])).field == nil)
        #expect(ErrorAnswer(ContactsDBError.revisionConflict(id: "x", expected: 1, current: 2)).field == nil)
    }

    @Test func otherErrorsAreTheRequestsOrTheServers() throws {
        #expect(ErrorAnswer(RequestError("Give it.")).status == .badRequest)
        #expect(ErrorAnswer(HTTPError(.contentTooLarge)).status == .contentTooLarge)
        let decoding = Result { try JSONDecoder().decode([String].self, from: Data("{}".utf8)) }
        #expect(ErrorAnswer(try #require(decoding.failure)).status == .badRequest)
        struct Unforeseen: Error {}
        let unforeseen = ErrorAnswer(Unforeseen())
        #expect(unforeseen.status == .internalServerError && unforeseen.error.hasPrefix("Unexpected failure: "))
        let json = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(ErrorAnswer(RequestError("Give it.")))) as? [String: String]
        #expect(json == ["error": "Give it."], "the status goes in the answer's head, not its body")
    }
}

extension Result {
    var failure: Failure? {
        if case let .failure(error) = self { error } else { nil }
    }
}
