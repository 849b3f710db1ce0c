/// A cell of the CSV layouts made for spreadsheets (Google's, Outlook's),
/// which a spreadsheet opens and may take for a formula: `=HYPERLINK(…)`
/// or `+cmd|' /C calc'!A0` in a name would run when the file is opened.
/// As OWASP advises ("CSV Injection"), such a cell is written with a
/// leading `'`, which spreadsheets show as text and do not display. This
/// engine's own layout is written exactly (docs/cli.md, "CSV").
enum SpreadsheetCell {
    /// The cell as written: `'` first when a spreadsheet would read it as
    /// a formula. A number as people write phones and dates (`+7 912
    /// 345-67-89`, `-5`, `+1 (555) 010-4477`) calls no function and is left
    /// as it is. A cell already beginning with `'`s before such a start
    /// gets one more, so that ``restored(_:)`` gives back every cell
    /// exactly.
    static func neutralised(_ cell: String) -> String {
        isNeutralised(cell) ? "'" + cell : cell
    }

    /// The cell as it was before ``neutralised(_:)``: one leading `'` taken
    /// off a cell that it would have put one on.
    static func restored(_ cell: String) -> String {
        cell.first == "'" && isNeutralised(cell.dropFirst()) ? String(cell.dropFirst()) : cell
    }

    /// True when the cell, past its leading `'`s, begins a formula.
    private static func isNeutralised(_ cell: Substring) -> Bool {
        let start = cell.drop { $0 == "'" }
        guard let first = start.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return false }
        return !start.unicodeScalars.allSatisfy { "0123456789 +-().,/".unicodeScalars.contains($0) }
    }

    private static func isNeutralised(_ cell: String) -> Bool { isNeutralised(cell[...]) }
}
