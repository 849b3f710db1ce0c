import ArgumentParser
import ContactsDB

/// `--book NAME`: the address book a command puts contacts into, or
/// finds a group in.
struct BookOption: ParsableArguments {
    @Option(help: ArgumentHelp("The address book (default: the default book, or for a group the one book that has it).",
                               valueName: "name"))
    var book: String?
}

/// `--book NAME`, repeatable: the address books a listing covers.
struct BookFilterOption: ParsableArguments {
    @Option(help: ArgumentHelp("Only contacts of this address book; repeat for several (default: every book).",
                               valueName: "name"))
    var book: [String] = []

    /// The books named, or nil for every book.
    var books: [String]? { book.isEmpty ? nil : book }
}
