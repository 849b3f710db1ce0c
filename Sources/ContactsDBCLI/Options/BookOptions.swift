import ArgumentParser
import ContactsDB

/// `--book NAME`, declared once for every command: `BookOption<OneBook>`
/// where a command puts contacts into a book or finds a group in one,
/// `BookOption<SeveralBooks>` where a listing covers the books named.
///
/// The option is a list for both, as ArgumentParser fixes a property's
/// arity by its type; a second `--book` where one book is meant is a usage
/// error.
struct BookOption<Count: BookCount>: ParsableArguments {
    @Option(help: ArgumentHelp(Count.help, valueName: "name"))
    var book: [String] = []

    func validate() throws {
        if !Count.isRepeatable, book.count > 1 {
            let given = book.map { "\"\($0)\"" }.joined(separator: ", ")
            throw ValidationError("Please give --book once: the command works in one address book (got \(given)).")
        }
    }
}

/// How many books a command's `--book` names, and its help.
protocol BookCount {
    static var isRepeatable: Bool { get }
    static var help: String { get }
}

/// One book, or the default.
enum OneBook: BookCount {
    static let isRepeatable = false
    static let help = "The address book (default: the default book, or for a group the one book that has it)."
}

/// Any number of books, or every book.
enum SeveralBooks: BookCount {
    static let isRepeatable = true
    static let help = "Only contacts of this address book; repeat for several (default: every book)."
}

extension BookOption where Count == OneBook {
    /// The book named, or nil for the default.
    var name: String? { book.first }
}

extension BookOption where Count == SeveralBooks {
    /// The books named, or nil for every book.
    var names: [String]? { book.isEmpty ? nil : book }
}
