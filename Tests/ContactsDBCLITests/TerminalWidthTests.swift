@testable import ContactsDBCLI
import Testing

/// The columns a cell of the tables `query`, `birthdays` and `book list`
/// print takes: ASCII text one a byte, the rest by its scalars.
@Suite struct TerminalWidthTests {
    @Test func eachCharacterTakesTheColumnsATerminalGivesIt() {
        #expect(Terminal.width("") == 0)
        #expect(Terminal.width("Anna Müller") == 11)
        #expect(Terminal.width("2026-12-01  84") == 14)
        // A control character is shown as one symbol (Terminal.visible).
        #expect(Terminal.width("a\u{7}b\tc") == 5)
        #expect(Terminal.width("김민지") == 6)
        #expect(Terminal.width("Ли 李") == 5)
        #expect(Terminal.width("e\u{301}") == 1)
        #expect(Terminal.padded("김", to: 4) == "김  ")
        #expect(Terminal.padded("Kim", to: 4) == "Kim ")
    }
}
