import GRDB

/// Lets a large import write its rows first and build what is derived from
/// them afterwards: the secondary indexes of `contact`, `nameWord` and
/// `contactDate`, the phone and text search, and the kept counts. One sort per index is far cheaper than
/// keeping a dozen indexes in step row by row, whose random inserts outgrow
/// the page cache; and the insert triggers cost more than the rows they
/// follow.
///
/// The work is deferred once the import has written as many contacts as
/// the table held before it, and at least ``minimumContacts``, so that a
/// small import into a large database keeps indexes it would otherwise
/// rebuild whole; or before the first contact, when the writer expects
/// that many to come (``expect(_:_:)``). Everything dropped is recreated
/// from its own stored SQL in the same transaction: a failed import rolls
/// the drop back with the rest, and the schema after an import is the
/// schema before it. The favorites' index stays, as an import reads it to
/// append each favorite.
/// Only the insert triggers are deferred, so a writer that defers may only
/// insert contacts, or must call ``stopDeferring(_:)`` before it updates or
/// deletes one: an update or a delete would reach the search index for a
/// row it does not hold yet, and a replaced contact's phones would never
/// reach it.
package struct DeferredIndexes {
    package static let minimumContacts = 1_000

    /// Each insert trigger deferred, and the statement that does, at the
    /// end, what it would have done for the contacts after `?`: from the
    /// view or the column the trigger itself reads (Schema/0004, 0005,
    /// 0007, 0009, 0019, 0021).
    static let triggers = [
        "contact_counts_insert": "",  // the counts are rebuilt whole
        "contact_search_insert": """
            INSERT INTO contactSearch (rowid, searchWords) SELECT pk, searchWords FROM contact WHERE pk > ?
            """,
        // Led by the tombstones, usually few, each found by the id's own
        // index: an `id IN (…)` list of every new contact costs a sort.
        "contact_tombstone_insert": """
            DELETE FROM contactTombstone
            WHERE EXISTS (SELECT 1 FROM contact WHERE contact.id = contactTombstone.id AND contact.pk > ?)
            """,
        "phone_digits_insert": """
            INSERT INTO phoneDigits (rowid, digits) SELECT phoneKey, digits FROM phoneDigitsOf WHERE contactPk > ?
            """,
        "phone_window_insert": """
            INSERT OR IGNORE INTO phoneWindow (window, phoneKey)
                SELECT window, phoneKey FROM phoneWindowOf WHERE contactPk > ? ORDER BY window, phoneKey
            """,
        // The person triggers (Schema/0019, 0021) act only on a contact
        // inserted with a person, which ``ContactWriter`` never writes
        // (links are made by updates), yet each insert statement runs
        // their programs to test their WHEN: SQLite gives each one a frame
        // of registers, allocated and zeroed again at every statement,
        // about 28,600 instructions a contact for the three. The catch-ups
        // read only linked contacts, from the persons' own index: `+pk`
        // keeps the key's range from leading, which would read every row
        // the import wrote.
        "contact_person_insert": """
            UPDATE contact SET isPersonHead = 1 - isPersonHead
            WHERE personId IN (SELECT personId FROM contact WHERE personId IS NOT NULL AND +pk > ?)
                AND isPersonHead <> (pk = (SELECT card.pk FROM contact AS card WHERE card.personId = contact.personId
                                           ORDER BY card.sortIndex, card.sortKey, card.id LIMIT 1))
            """,
        "contact_personAttributes_insert": """
            UPDATE contact SET personAttributes = person.attributes FROM personAttributesOf AS person
            WHERE person.personId IN (SELECT personId FROM contact WHERE personId IS NOT NULL AND +pk > ?)
                AND contact.personId = person.personId AND contact.personAttributes IS NOT person.attributes
            """,
        "contact_personCounts_insert": "",  // the counts are rebuilt whole
    ]
    /// While deferring, the search indexes (the text's, the phone digits'
    /// and windows) are caught up every this many contacts rather than
    /// once after the last: they take rows in any order at the same cost,
    /// so their work shares the cores with the threads still deriving
    /// instead of following them alone.
    static let searchCatchUpContacts = 8_192

    private var threshold: Int
    private let searchInterval: Int
    private(set) var isDeferring = false
    private let sortingThreads: Int
    private var dropped: [(type: String, name: String, sql: String)] = []
    /// The last contact written while the triggers still ran.
    private var lastIndexedPk: Int64 = 0
    /// The last contact the search indexes hold while deferring, and
    /// the contacts inserted when they were caught up to it.
    private var searchedPk: Int64 = 0
    private var searchedAt = 0
    /// Processor seconds the catch-ups took while the import wrote.
    private(set) var searchSecondsWhileWriting = 0.0

    /// - parameter sortingThreads: helper threads SQLite's sorter may use
    ///   to build the indexes at the end, beside the writing one.
    package init(
        _ db: Database, minimumContacts: Int = Self.minimumContacts, searchingEvery interval: Int = Self.searchCatchUpContacts,
        sortingThreads: Int = 0
    ) throws {
        let stored = try Int.fetchOne(db, sql: "SELECT coalesce(sum(count), 0) FROM attributeCount") ?? 0
        threshold = max(minimumContacts, stored)
        searchInterval = interval
        self.sortingThreads = sortingThreads
    }

    /// How many more contacts may be written, after `inserted`, before
    /// ``didInsert(_:_:)`` should be asked again.
    func contactsBeforeDeferring(after inserted: Int) -> Int {
        isDeferring ? .max : max(1, threshold - inserted)
    }

    /// Drops the indexes and triggers before the first contact when the
    /// writer expects `contacts` to come and they reach the threshold.
    /// Written with the full-text triggers live, each contact's statement
    /// flushes a segment of its own: the writer's inserts for 10,000
    /// contacts took 1,351 million instructions with the first 1,000 live
    /// and 863 million with none.
    package mutating func expect(_ contacts: Int, _ db: Database) throws {
        guard contacts >= threshold, !isDeferring else { return }
        try startDeferring(inserted: 0, db)
    }

    /// Drops the indexes and triggers once `inserted`, the contacts
    /// written whole so far, reaches the threshold.
    package mutating func didInsert(_ inserted: Int, _ db: Database) throws {
        if isDeferring, inserted - searchedAt >= searchInterval {
            try catchUpSearch(db)
            searchedAt = inserted
        }
        guard inserted >= threshold, !isDeferring else { return }
        try startDeferring(inserted: inserted, db)
    }

    private mutating func startDeferring(inserted: Int, _ db: Database) throws {
        isDeferring = true
        let objects = try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master
            WHERE (type = 'index' AND tbl_name IN ('contact', 'nameWord', 'contactDate') AND sql IS NOT NULL
                   AND name <> 'contact_on_favoritePosition')
               OR (type = 'trigger' AND name IN (\(Self.triggers.keys.map { _ in "?" }.joined(separator: ", "))))
            ORDER BY type, name
            """, arguments: StatementArguments(Array(Self.triggers.keys)))
        for object in objects {
            let type: String = object["type"], name: String = object["name"]
            try db.execute(sql: "DROP \(type.uppercased()) \(name.quotedDatabaseIdentifier)")
        }
        dropped = objects.map { ($0["type"], $0["name"], $0["sql"]) }
        lastIndexedPk = try Int64.fetchOne(db, sql: "SELECT max(pk) FROM contact") ?? 0
        (searchedPk, searchedAt) = (lastIndexedPk, inserted)
    }

    /// Builds what was deferred now, and defers nothing more: an update or
    /// a delete may follow.
    package mutating func stopDeferring(_ db: Database) throws {
        try finish(db)
        threshold = .max
    }

    /// Brings the search indexes up to every contact written.
    private mutating func catchUpSearch(_ db: Database) throws {
        guard isDeferring else { return }
        let last = try Int64.fetchOne(db, sql: "SELECT max(pk) FROM contact") ?? 0
        guard last > searchedPk else { return }
        try PhaseClock.addingThreadTime(to: &searchSecondsWhileWriting) {
            for name in Self.searchTriggers.sorted() {
                try db.execute(sql: Self.triggers[name]!, arguments: [searchedPk])
            }
        }
        searchedPk = last
    }

    /// Builds what was dropped, and what its triggers would have written;
    /// returns the seconds this took for the indexes and counts, and for
    /// what the search indexes still lacked. Once done, it defers nothing
    /// until the threshold is reached again.
    @discardableResult
    package mutating func finish(_ db: Database) throws -> (indexes: Double, searchIndex: Double) {
        var times = (indexes: 0.0, searchIndex: 0.0)
        guard !dropped.isEmpty else { return times }
        defer { (dropped, isDeferring) = ([], false) }
        let indexes = dropped.filter { $0.type == "index" }.map(\.sql)
        try PhaseClock.adding(to: &times.indexes) { try Self.build(indexes, sortingThreads: sortingThreads, db) }
        for (type, name, sql) in dropped where type != "index" {
            try db.execute(sql: sql)
            if let catchUp = Self.triggers[name], !catchUp.isEmpty {
                let isSearch = Self.searchTriggers.contains(name)
                var seconds = 0.0
                try PhaseClock.adding(to: &seconds) {
                    try db.execute(sql: catchUp, arguments: [isSearch ? searchedPk : lastIndexedPk])
                }
                if isSearch { times.searchIndex += seconds } else { times.indexes += seconds }
            }
        }
        try PhaseClock.adding(to: &times.indexes) { try Reindexer.rebuildCounts(db) }
        return times
    }

    /// Runs the `CREATE INDEX` statements with SQLite's sorter on up to
    /// `sortingThreads` helper threads (SQLite allows 8). The sorter cuts
    /// an index's keys into runs as large as the page cache and hands runs
    /// to helpers only when there are several, so the cache is 1 MB while
    /// the indexes are built: on two cores 100,000 contacts' indexes took
    /// 0.71–0.83 s instead of 0.86–0.97 s, each of a million's about 1.0 s
    /// instead of 1.7–2.0 s. Pages the smaller cache lets go are written
    /// to the log, as the commit would.
    private static func build(_ indexes: [String], sortingThreads: Int, _ db: Database) throws {
        let (cacheSize, threads) = (try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0, try Int.fetchOne(db, sql: "PRAGMA threads") ?? 0)
        defer {
            try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)")
            try? db.execute(sql: "PRAGMA threads = \(threads)")
        }
        try db.execute(sql: "PRAGMA threads = \(sortingThreads)")
        try db.execute(sql: "PRAGMA cache_size = -1024")
        for sql in indexes { try db.execute(sql: sql) }
    }

    /// The deferred triggers that feed a search index: the text's and the
    /// phone digits' (FTS5), and the phone windows.
    private static let searchTriggers: Set = ["phone_digits_insert", "phone_window_insert", "contact_search_insert"]
}
