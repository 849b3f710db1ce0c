import ArgumentParser
@testable import ContactsDB
@testable import ContactsDBCLI
import Foundation
import Testing

/// The one table from errors to exit codes and sentences.
@Suite struct ExitStatusTests {
    static let cases: [(ContactsDBError, Int32)] = [
        (.contactsNotFound(ids: ["x"]), 1),
        (.groupNotFound(name: "g"), 1),
        (.invalidContact(field: "contacts[0].age", reason: "1000 is not an age; give 0 to 999."), 65),
        (.malformedJSON(file: "a.json", line: 1, column: 2, reason: "eof"), 65),
        (.duplicateContactID(field: "contacts[0].id", id: "x"), 65),
        (.contactExists(field: "contacts[0].id", id: "x"), 65),
        (.groupExists(name: "g"), 65),
        (.invalidPhoto(.notAnImage), 65),
        (.invalidPhoto(.unsupportedType("SVG")), 65),
        (.invalidPhoto(.tooLarge(bytes: 10_485_761, limit: 10_485_760)), 65),
        (.invalidPhoto(.tooManyPixels(width: 20000, height: 20000, limit: 50_000_000)), 65),
        (.invalidPhoto(.undecodable(format: "JPEG", reason: "VipsJpeg: Premature end of input file")), 65),
        (.foreignChangeToken(token: "x"), 65),
        (.expiredChangeToken(token: "x"), 65),
        (.unreadableFile(path: "/in.json", reason: "no such file"), 66),
        (.unwritableFile(path: "/out.vcf", reason: "No space left on device"), 74),
        (.unwritableOutput(reason: "No space left on device"), 74),
        (.databaseTooNew(path: "/db", unknownMigrations: ["9999_x"]), 74),
        (.migrationEdited(path: "/db", migration: "0001_initial"), 74),
        (.notContactsDatabase(path: "/db", reason: "not SQLite"), 74),
        (.databaseUnavailable(path: "/db", reason: "read-only"), 74),
        (.databaseBusy(path: "/db"), 74),
        (.diskFull(path: "/db"), 74),
        (.migrationFailed(migration: "0002_x", reason: "boom"), 70),
        (.databaseFailure(reason: "boom"), 70),
        (.revisionConflict(id: "x", expected: 3, current: 5), 75),
        (.invalidRemote(.credentialsInURL), 64),
        (.invalidBook(.hasRemote(name: "home", url: "https://dav.example/card/")), 64),
        (.invalidBook(.notFound("work")), 64),
        (.ambiguousGroup(name: "Team", books: ["home", "work"]), 64),
        (.invalidRemote(.severalAddressBooks(["a", "b"])), 64),
        (.invalidRemote(.plainHTTP(host: "192.0.2.7")), 64),
        (.remoteNotFound(name: nil), 1),
        (.remoteUnavailable(url: "https://dav.example/", reason: "connection refused"), 69),
        (.remoteRefusedCredentials(url: "https://dav.example/"), 77),
        (.conflictNotFound(id: 3), 1),
        (.notInTrash(ids: ["x", "y"]), 1),
        (.restoredIDInUse(id: "x"), 1),
        (.revisionNotInHistory(id: "x", revision: 4, available: [9, 7, 2]), 1),
    ]

    @Test(arguments: cases.indices)
    func eachErrorExitsWithItsSpecCodeAndOneSentence(_ index: Int) {
        let (error, code) = Self.cases[index]
        let status = ExitStatus(error)
        #expect(status.code == code, "\(error)")
        #expect(!status.message.contains("\n") && status.message.hasSuffix("."), "\(status.message)")
        // The library says what is wrong in its own terms; the command
        // line keeps that and adds the command or option that helps.
        let library = error.localizedDescription
        #expect(!library.contains("`contactsdb") && !library.contains(" --"), "\(library)")
        #expect(status.message.hasPrefix(error.problem))
        if let advice = error.commandLineAdvice {
            #expect(status.message == error.problem + "; " + advice + ".")
        } else {
            #expect(status.message == library)
        }
    }

    struct SomethingElse: Error {}

    @Test func anUnmappedErrorExits70AndSaysItWasUnexpected() {
        let status = ExitStatus(SomethingElse())
        #expect(status.code == 70)
        #expect(status.message.hasPrefix("Unexpected failure: ") && status.message.hasSuffix("; please report it."))
    }

    @Test func foundationFileErrorsNameTheFileWithoutTheirDomainText() {
        let full = ExitStatus(CocoaError(.fileWriteOutOfSpace, userInfo: [
            NSFilePathErrorKey: "/out/cards", NSUnderlyingErrorKey: POSIXError(.ENOSPC),
        ]))
        #expect(full == ExitStatus(code: 74, message: "Cannot write /out/cards: No space left on device."))
        let missing = ExitStatus(CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "/in.json"]))
        #expect(missing.code == 66 && missing.message.hasPrefix("Cannot read /in.json: "))
        for status in [full, missing, ExitStatus(CocoaError(.coderInvalidValue))] {
            #expect(!status.message.contains("NSCocoaErrorDomain") && !status.message.contains("Error Domain"), "\(status.message)")
        }
    }

    @Test func usageErrorsAreLeftToArgumentParser() throws {
        #expect(ExitStatus.isArgumentParserError(ValidationError("Please …")))
        for arguments in [["query", "--bogus"], ["frobnicate"]] {
            #expect(throws: (any Error).self) {
                do { _ = try ContactsDBCommand.parseAsRoot(arguments) } catch {
                    #expect(ExitStatus.isArgumentParserError(error), "\(arguments)")
                    throw error
                }
            }
        }
        // --help parses to a command whose run throws the help request.
        var help = try ContactsDBCommand.parseAsRoot(["--help"])
        #expect(throws: (any Error).self) {
            do { try help.run() } catch {
                #expect(ExitStatus.isArgumentParserError(error))
                throw error
            }
        }
        #expect(!ExitStatus.isArgumentParserError(ContactsDBError.databaseBusy(path: "/db")))
    }
}
