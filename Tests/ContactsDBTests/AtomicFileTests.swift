import ContactsDB
import ContactsDBTestSupport
import Foundation
import Testing

/// Files written whole or not at all.
@Suite struct AtomicFileTests {
    let directory = TemporaryDirectory()

    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    @Test func nothingIsAtThePathUntilCommitAndThenTheWholeFileMode0600() throws {
        let path = directory.path("out.txt")
        let file = try AtomicFile(path: path)
        try file.write("first ")
        try file.write(Data("second".utf8))
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try names().count == 1 && names()[0].hasPrefix(".out.txt.") && names()[0].hasSuffix(".tmp"))
        try file.commit(replacingExisting: false)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first second")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try names() == ["out.txt"])
    }

    @Test func aFileThatIsNotCommittedLeavesNothing() throws {
        do {
            let file = try AtomicFile(path: directory.path("out.txt"))
            try file.write("half")
        }
        #expect(try names() == [])
    }

    @Test func anExistingFileIsKeptUnlessReplacingIsAsked() throws {
        let path = directory.write("out.txt", "old")
        let kept = try AtomicFile(path: path)
        try kept.write("new")
        #expect(throws: ContactsDBError.unwritableFile(path: path, reason: "a file is already there; choose a new path")) {
            try kept.commit(replacingExisting: false)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        let replaced = try AtomicFile(path: path)
        try replaced.write("new")
        try replaced.commit(replacingExisting: true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(try names() == ["out.txt"])
    }

    @Test func aSymbolicLinkAtThePathIsReplacedNeverFollowed() throws {
        let outside = directory.write("outside.txt", "outside")
        let link = directory.path("link.txt")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        let file = try AtomicFile(path: link)
        try file.write("card")
        try file.commit(replacingExisting: true)
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "outside")
        #expect(try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: link, encoding: .utf8) == "card")
    }

    @Test func aFileThatCannotBeCreatedNamesThePathAndWhy() throws {
        #expect(throws: ContactsDBError.unwritableFile(path: "/no/such/directory/out.txt", reason: "No such file or directory")) {
            try AtomicFile(path: "/no/such/directory/out.txt")
        }
    }
}
