/// The import's raw twin's statements (``RawImport``).
extension BenchmarkSQL {
    /// Every schema object with its SQL, in the order it was made.
    static let schemaObjects = "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"
    static let columnCount = "SELECT count(*) FROM pragma_table_info(?)"
    static let virtualTablePrefix = "CREATE VIRTUAL TABLE"
    static let storedNumbers = "SELECT value FROM phone"
    /// The connection's settings (Storage's Connection) and WAL, as a store has.
    static let importSettings = "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -65536"
    static let begin = "BEGIN IMMEDIATE"

    static func rows(of table: String) -> String { "SELECT * FROM \(quoted(table))" }

    static func insert(into table: String, columns: Int) -> String {
        "INSERT INTO \(quoted(table)) VALUES (\(Array(repeating: "?", count: columns).joined(separator: ", ")))"
    }

    /// Tables whose rows are derived: built at the end, not copied
    /// (`phoneWindow` with the search indexes).
    static let derivedTables: Set = ["phoneWindow", "sectionCount", "attributeCount"]
    /// What builds them from the rows, from the views the engine reads.
    static let derivedRows = [
        "INSERT INTO sectionCount (sortIndex, sectionKey, count) SELECT sortIndex, sectionKey, count FROM sectionCountOf",
        "INSERT INTO attributeCount (attributes, count) SELECT attributes, count FROM attributeCountOf",
        "UPDATE sectionCount SET nonHeads = heads.count FROM nonHeadCountOf AS heads WHERE sectionCount.sortIndex = heads.sortIndex",
        """
        INSERT INTO attributeCount (attributes, count, personDelta) SELECT attributes, 0, delta FROM personDeltaOf WHERE true
            ON CONFLICT (attributes) DO UPDATE SET personDelta = excluded.personDelta
        """,
    ]
    /// The search indexes: the phone digits' (full text), the phone windows and the text's (full text).
    static let searchRows = [
        "INSERT INTO phoneDigits (rowid, digits) SELECT phoneKey, digits FROM phoneDigitsOf",
        "INSERT INTO phoneWindow (window, phoneKey) SELECT window, phoneKey FROM phoneWindowOf ORDER BY window, phoneKey",
        "INSERT INTO contactSearch (rowid, searchWords) SELECT pk, searchWords FROM contact",
    ]

    private static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
