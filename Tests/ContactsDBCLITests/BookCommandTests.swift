import ContactsDBTestSupport
import Foundation
import GRDB
import Testing
@testable import ContactsDBCLI
import ContactsDBBench

/// `book`, `move` and `--book` (docs/cli.md, "Address books"), each command
/// a process of its own against one database file.
@Suite struct BookCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    func ids(_ result: CLIRunner.Result) -> [String] {
        result.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
    }

    /// One declaration of `--book`: once where contacts go in or a group
    /// is found, repeatable where a listing covers books, each with its help.
    @Test func bookNamesOneBookWhereContactsGoInAndSeveralForAListing() throws {
        let add = try #require(try ContactsDBCommand.parseAsRoot(["add", "--first-name", "A", "--book", "work"])
            as? ContactsDBCommand.Add)
        #expect(add.book.name == "work")
        do {
            _ = try ContactsDBCommand.parseAsRoot(["add", "--first-name", "A", "--book", "work", "--book", "home"])
            Issue.record("two books for add parsed")
        } catch {
            #expect(ContactsDBCommand.exitCode(for: error).rawValue == 64)
            #expect(ContactsDBCommand.message(for: error).contains("Please give --book once"))
        }
        let query = try #require(try ContactsDBCommand.parseAsRoot(["query", "--book", "work", "--book", "home"])
            as? ContactsDBCommand.Query)
        #expect(query.filters.books.names == ["work", "home"])
        #expect(try query.filters.makeQuery().bookNames == ["work", "home"])
        let trash = try #require(try ContactsDBCommand.parseAsRoot(["trash"]) as? ContactsDBCommand.Trash.List)
        #expect(trash.books.names == nil)
        #expect(ContactsDBCommand.Add.helpMessage(columns: 400).contains(OneBook.help))
        #expect(ContactsDBCommand.Query.helpMessage(columns: 400).contains(SeveralBooks.help))
    }

    @Test func booksHoldTheirContactsAcrossRestarts() throws {
        let db = directory.path("contacts.sqlite")
        #expect(try cli.run(db: db, ["book", "list", "--format", "json"]).stdout
            == "[\n{\"contacts\":10,\"default\":true,\"name\":\"local\",\"remote\":null}\n]\n")
        // One book: no BOOK column.
        #expect(!(try cli.run(db: db, ["query", "--limit", "1"]).stdout.contains("BOOK")))
        #expect(try cli.run(db: db, ["book", "create", "Work"]).exitCode == 0)
        #expect(try cli.run(db: db, ["add", "--book", "work", "--first-name", "Vera", "--last-name", "Sokolova"]).exitCode == 0)
        #expect(try cli.run(db: db, ["add", "--json", "-", "--book", "WORK"],
                            stdin: #"{"id": "w2", "firstName": "Wanda", "groups": ["Team"]}"#).stdout == "w2\n")
        let work = try cli.run(db: db, ["query", "--book", "work", "--format", "ndjson"])
        #expect(work.lines.count == 2)
        #expect(work.lines.allSatisfy { $0.contains(#""book": "Work""#) })
        #expect(try cli.run(db: db, ["query", "--count"]).stdout == "12\n")
        #expect(try cli.run(db: db, ["query", "--count", "--book", "local", "--book", "work"]).stdout == "12\n")
        #expect(try cli.run(db: db, ["query", "--book", "local", "--limit", "1"]).stdout.contains("BOOK"))
        #expect(try cli.run(db: db, ["show", "w2"]).lines.contains { $0.contains("book:") && $0.hasSuffix(" Work") })

        // The default moves, then a plain add goes there.
        #expect(try cli.run(db: db, ["book", "default", "work"]).exitCode == 0)
        #expect(try cli.run(db: db, ["add", "--json", "-"], stdin: #"{"id": "w3", "firstName": "Walter"}"#).exitCode == 0)
        #expect(ids(try cli.run(db: db, ["query", "--book", "work", "--format", "ndjson"])).contains("w3"))

        // Moved, a contact keeps its id and takes its group by name.
        #expect(try cli.run(db: db, ["move", "w2", "--to", "local"]).stdout == "Moved 1 contact to \"local\".\n")
        let moved = try cli.run(db: db, ["show", "w2", "--format", "ndjson"]).stdout
        #expect(moved.contains(#""book": "local""#) && moved.contains(#""groups": ["Team"]"#))
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)
    }

    @Test func anUnknownBookIsOneSentenceAnd64AndWritesNothing() throws {
        let db = directory.path("contacts.sqlite")
        _ = try cli.run(db: db, ["init"])
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        for arguments in [
            ["add", "--book", "nope", "--first-name", "Vera"], ["query", "--book", "nope"], ["export", "--book", "nope"],
            ["move", "seed-acme", "--to", "nope"], ["book", "rename", "nope", "x"], ["book", "default", "nope"],
            ["book", "delete", "nope"], ["changes", "--book", "nope"], ["duplicates", "--book", "nope"],
            ["birthdays", "--book", "nope"], ["group", "create", "Team", "--book", "nope"],
        ] {
            let result = try cli.run(db: db, arguments)
            #expect(result.exitCode == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "Error: There is no address book named \"nope\"; `contactsdb book list` lists them.\n",
                    "\(arguments)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    @Test func aBookIsDeletedOnlyEmptyOrWithItsContactsMoved() throws {
        let db = directory.path("contacts.sqlite")
        _ = try cli.run(db: db, ["book", "create", "old"])
        _ = try cli.run(db: db, ["move", "seed-acme", "seed-kim-minji", "--to", "old"])
        let refused = try cli.run(db: db, ["book", "delete", "old"])
        #expect(refused.exitCode == 64)
        #expect(refused.stderr.contains("holds 2 contacts"))
        #expect(try cli.run(db: db, ["book", "delete", "local"]).exitCode == 64)
        #expect(try cli.run(db: db, ["book", "create", "OLD"]).exitCode == 64, "names are unique whatever their case")
        #expect(try cli.run(db: db, ["book", "delete", "old", "--move-to", "local"]).exitCode == 0)
        #expect(try cli.run(db: db, ["query", "--count", "--book", "local"]).stdout == "10\n")
        #expect(try cli.run(db: db, ["book", "list"]).lines.count == 2)
    }

    /// The lines of `watch --format table`'s next result, up to its blank line.
    func nextTable(_ watcher: ProcessLines) -> [String] {
        var lines: [String] = []
        while let line = watcher.next(within: 5)?.text, !line.isEmpty { lines.append(line) }
        return lines
    }

    @Test func watchTablesGainTheBookColumnWithASecondBook() throws {
        let db = directory.path("contacts.sqlite")
        #expect(try cli.run(db: db, ["query", "--count"]).stdout == "10\n")
        let watcher = try ProcessLines(CLIRunner.binary, arguments: ["--db", db, "watch", "--format", "table", "--limit", "3"])
        defer { watcher.stop(with: SIGKILL) }
        let first = nextTable(watcher)
        #expect(first.count == 4 && !first[0].contains("BOOK"))
        #expect(try cli.run(db: db, ["book", "create", "work"]).exitCode == 0)
        #expect(try cli.run(db: db, ["add", "--book", "work", "--first-name", "Aaron", "--last-name", "Aaberg"]).exitCode == 0)
        let second = nextTable(watcher)
        #expect(second.first?.contains("BOOK") == true)
        #expect(second.contains { $0.hasPrefix("Aaron Aaberg") && $0.contains(" work ") })
        #expect(watcher.stop(with: SIGINT) == 0)
    }

    /// A book's name is typed: a line break is refused, not tidied away
    /// unsaid, and a name equal to another's in full case folding is that
    /// other's.
    @Test func bookNamesAreOneLineAndUniqueInFullCaseFolding() throws {
        let db = try cli.makeEmptyDatabase("names.sqlite", in: directory)
        let broken = try cli.run(db: db, ["book", "create", "Work\nHome"])
        #expect(broken.exitCode == 64 && broken.stderr.split(separator: "\n").count >= 1, "\(broken.stderr)")
        for (first, second) in [("straße", "STRASSE"), ("οδος", "ΟΔΟΣ"), ("ﬁle", "FILE")] {
            #expect(try cli.run(db: db, ["book", "create", first]).exitCode == 0)
            let clash = try cli.run(db: db, ["book", "create", second])
            #expect(clash.exitCode == 64, "\(second): \(clash.stderr)")
            #expect(try cli.run(db: db, ["add", "--book", second, "--first-name", "Found"]).exitCode == 0, "\(second) names \(first)")
        }
        let names = try cli.run(db: db, ["book", "list", "--format", "json"]).stdout
        #expect(!names.contains("Work") && !names.contains("STRASSE") && !names.contains("ΟΔΟΣ") && !names.contains("FILE"))
    }

    /// A book made after one was deleted is a new book: it reports none of
    /// the other's deletions.
    @Test func aNewBookReportsNoneOfADeletedBooksChanges() throws {
        let db = try cli.makeEmptyDatabase("reused.sqlite", in: directory)
        #expect(try cli.run(db: db, ["book", "create", "old"]).exitCode == 0)
        _ = try cli.run(db: db, ["add", "--json", "-", "--book", "old"], stdin: #"[{"id": "gone", "firstName": "Gone"}]"#)
        let feed = try JSONSerialization.jsonObject(with: try cli.run(db: db, ["changes", "--format", "json"]).stdoutData)
        let token = try #require((feed as? [String: Any])?["token"] as? String)
        #expect(try cli.run(db: db, ["delete", "gone"]).exitCode == 0)
        #expect(try cli.run(db: db, ["book", "delete", "old"]).exitCode == 0)
        #expect(try cli.run(db: db, ["book", "create", "new"]).exitCode == 0)
        #expect(try cli.run(db: db, ["changes", "--since", token, "--format", "ndjson"]).stdout.contains("gone"))
        let changes = try cli.run(db: db, ["changes", "--since", token, "--book", "new", "--format", "ndjson"])
        #expect(changes.exitCode == 0 && !changes.stdout.contains("gone"), "\(changes.stdout)")
    }

    /// A remote is its book's and may be named as a book is, spaces
    /// included: the name passes, and the unreachable server is the error.
    @Test func aRemoteMayBindABookWhoseNameHasASpace() throws {
        let db = try cli.makeEmptyDatabase("spaced.sqlite", in: directory)
        #expect(try cli.run(db: db, ["book", "create", "My Work"]).exitCode == 0)
        let added = try cli.run(db: db, ["remote", "add", "My Work", "http://127.0.0.1:9/dav/", "--timeout", "2"])
        #expect(added.exitCode == 69, "\(added.stderr)")
    }

    @Test func listingsAndFeedsNarrowToTheirBooks() throws {
        let db = directory.path("contacts.sqlite")
        _ = try cli.run(db: db, ["book", "create", "family"])
        _ = try cli.run(db: db, ["add", "--json", "-", "--book", "family"],
                        stdin: #"[{"id": "f1", "firstName": "Fedor", "birthday": "1990-01-02", "phones": [{"value": "+7 912 345-67-89"}]}]"#)
        let familyChanges = try cli.run(db: db, ["changes", "--book", "family", "--format", "ndjson"])
        #expect(familyChanges.exitCode == 0)
        #expect(familyChanges.stdout.contains("f1") && !familyChanges.stdout.contains("seed-acme"))
        let exported = try cli.run(db: db, ["export", "--format", "ndjson", "--book", "family"])
        #expect(ids(exported) == ["f1"])
        // Fedor shares Ivan Petrov's number: a set across books, and none within one.
        #expect(try cli.run(db: db, ["duplicates", "--format", "json"]).stdout.contains("f1"))
        #expect(!(try cli.run(db: db, ["duplicates", "--format", "json", "--book", "family"]).stdout.contains("f1")))
        let birthdays = try cli.run(db: db, ["birthdays", "--from", "2026-01-01", "--within", "3", "--book", "family"])
        #expect(birthdays.stdout.contains("f1"))
        #expect(!(try cli.run(db: db, ["birthdays", "--from", "2026-01-01", "--within", "3", "--book", "local"]).stdout.contains("f1")))
    }

    @Test func groupsOfOneNameInTwoBooksAreToldApartByBook() throws {
        let db = directory.path("contacts.sqlite")
        _ = try cli.run(db: db, ["book", "create", "work"])
        _ = try cli.run(db: db, ["group", "create", "Team"])
        _ = try cli.run(db: db, ["group", "create", "Team", "--book", "work"])
        let ambiguous = try cli.run(db: db, ["group", "rename", "Team", "Crew"])
        #expect(ambiguous.exitCode == 64)
        #expect(ambiguous.stderr.contains("each have a group \"Team\""))
        #expect(try cli.run(db: db, ["group", "rename", "Team", "Crew", "--book", "work"]).exitCode == 0)
        // The contacts' own book names the group; another book's contact is refused.
        #expect(try cli.run(db: db, ["group", "add", "Team", "seed-acme"]).exitCode == 0)
        let foreign = try cli.run(db: db, ["group", "add", "Crew", "seed-acme"])
        #expect(foreign.exitCode == 64)
        #expect(foreign.stderr.contains("is in the book \"local\""))
        #expect(try cli.run(db: db, ["query", "--group", "team", "--count"]).stdout == "1\n")
        let groups = try cli.run(db: db, ["group", "list"]).stdout
        #expect(groups.contains("BOOK") && groups.contains("Crew") && groups.contains("work"))
    }
}
