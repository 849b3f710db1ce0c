import Foundation
import GRDB
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

/// A large import builds its indexes, phone search and counts after its
/// rows; a store filled that way must answer as one written row by row.
@Suite struct DeferredIndexesTests {
    static let drafts = SyntheticContacts(count: 300, seed: 11).enumerated().map { index, draft in
        var draft = draft
        draft.id = "c\(index)"
        return draft
    }

    /// 60 contacts added one by one, then the other 240 imported, with the
    /// indexes deferred after `minimum` of them (or the 60 stored, if more),
    /// or before the first when `atOnce` (its 110 KB say enough are
    /// coming), and the full-text indexes caught up every `interval` contacts.
    func store(
        deferringAfter minimum: Int, atOnce: Bool = false, searchingEvery interval: Int = DeferredIndexes.searchCatchUpContacts
    ) throws -> ContactStore {
        let store = try ContactStore.makeEmpty()
        try store.add(Array(Self.drafts.prefix(60)))
        // What deferring at once takes the 240 to announce: 60 contacts' bytes.
        if atOnce { #expect(ContactStore.json(Self.drafts.dropFirst(60)).count >= 60 * ImportPipeline.bytesPerContact) }
        try store.importAll(Array(Self.drafts.dropFirst(60)), deferringAfter: minimum, atOnce: atOnce, searchingEvery: interval)
        return store
    }

    /// Whether the indexes are dropped before the first contact or after
    /// some, and the full-text indexes catch up at the end or as the import
    /// goes, it answers as one written row by row.
    @Test(arguments: [(false, DeferredIndexes.searchCatchUpContacts), (false, 64), (true, 64)])
    func aDeferredImportAnswersAsARowByRowOne(atOnce: Bool, searchingEvery interval: Int) throws {
        let deferred = try store(deferringAfter: 50, atOnce: atOnce, searchingEvery: interval)
        let rowByRow = try store(deferringAfter: .max)
        // Dropping and recreating moves the schema cookie; only the
        // deferred import did, and it left the schema as it was.
        #expect(try deferred.schemaVersion() > rowByRow.schemaVersion())
        #expect(try deferred.schema() == rowByRow.schema())
        #expect(try deferred.diagnose().allSatisfy(\.isHealthy))
        // Added, imported before the indexes were dropped, and after.
        let phones = [0..<60, 60..<120, 120..<300].compactMap { range in
            Self.drafts[range].last { !$0.phones.isEmpty }?.phones[0].value
        }
        #expect(phones.count == 3)
        var queries = [ContactQuery(), ContactQuery().filter(.namePrefix("an")), ContactQuery().sorted(by: .lastName, descending: true)]
        // Whole numbers go through the windows, 4 and 7 digits through FTS5.
        let digits = phones.map { $0.filter(\.isNumber) }
        queries += phones.map { ContactQuery().filter(.phone($0)) }
        queries += digits.map { ContactQuery().filter(.phone(String($0.suffix(7)))) }
        queries += digits.map { ContactQuery().filter(.phone(String($0.dropFirst(4).prefix(4)))) }
        queries += [ContactQuery().filter(.phone("123")), ContactQuery().filter(.has([.phone, .telegram]))]
        queries += [ContactQuery().filter(.text("call")), ContactQuery().filter(.text("example"))]
        for query in queries {
            let ids = try deferred.ids(matching: query)
            #expect(!ids.isEmpty)
            #expect(ids == (try rowByRow.ids(matching: query)))
            #expect(try deferred.count(matching: query) == ids.count)
            #expect(try deferred.sections(matching: query) == (try rowByRow.sections(matching: query)))
        }
        #expect(try deferred.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM phoneDigits") }
            == (try rowByRow.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM phoneDigits") }))
        #expect(try deferred.phoneWindowsMatchPhones())
        // The indexes were built with a small cache and the sorter's
        // helper threads; the connection has its own settings back.
        func settings(_ store: ContactStore) throws -> [Int?] {
            try store.read { db in
                [try Int.fetchOne(db, sql: "PRAGMA cache_size"), try Int.fetchOne(db, sql: "PRAGMA threads")]
            }
        }
        #expect(try settings(deferred) == settings(rowByRow))
        #expect(try settings(deferred)[1] == 0)
    }

    /// A deferred import says where its time went: every phase it went
    /// through took time, and one written row by row rebuilt nothing.
    @Test func aDeferredImportTimesEachPhase() throws {
        let json = ContactStore.json(Self.drafts)
        func phases(deferringAfter minimum: Int) throws -> ImportPhases {
            try ContactStore.makeEmpty().write { db in
                try ImportPipeline(inputs: [.data(json, source: "big.json")], deferringIndexesAfter: minimum).run(db)
            }.phases
        }
        let deferred = try phases(deferringAfter: 50)
        #expect(deferred.parse > 0 && deferred.validateAndDerive > 0 && deferred.write > 0)
        #expect(deferred.indexBuild > 0 && deferred.searchIndex > 0)
        let rowByRow = try phases(deferringAfter: .max)
        #expect(rowByRow.write > 0 && rowByRow.indexBuild == 0 && rowByRow.searchIndex == 0)
    }

    /// `phoneWindow` follows its phones through adds, updates, deletes and
    /// cascades, as its triggers keep it.
    @Test func phoneWindowsFollowTheirPhones() throws {
        let store = try store(deferringAfter: 50)
        let ids = try store.ids(matching: ContactQuery().filter(.has(.phone)))
        try store.delete(ids: Array(ids.prefix(20)))
        try store.update(id: ids[30]) { $0.phones = [Phone(value: "+7 912 345-67-89"), Phone(value: "11111111111")] }
        try store.update(id: ids[31]) { $0.phones = [] }
        try store.add(ContactDraft(firstName: "Kim", phones: [Phone(value: "010-1234-5678")]))
        #expect(try store.phoneWindowsMatchPhones())
        #expect(try store.rowCount("phoneWindow") > 0)
        #expect(try store.ids(matching: ContactQuery().filter(.phone("11111111111"))) == [ids[30]])
        // A stray window is reported, and reindex drops it.
        try store.write { db in try db.execute(sql: "INSERT INTO phoneWindow (window, phoneKey) VALUES (11234567, 5)") }
        #expect(try store.diagnose().first { $0.check == "phone search" }?.isHealthy == false)
        try store.reindex()
        #expect(try store.diagnose().allSatisfy(\.isHealthy))
    }

    @Test(arguments: [false, true])
    func aFailedDeferredImportLeavesSchemaAndRowsAsTheyWere(atOnce: Bool) throws {
        let store = try ContactStore.makeEmpty()
        try store.add(Array(Self.drafts.prefix(20)))
        let schema = try store.schema(), counts = try store.tableCounts()
        var drafts = Array(Self.drafts.dropFirst(20))
        drafts[200].age = 1_000
        #expect(invalidField { try store.importAll(drafts, deferringAfter: 10, atOnce: atOnce) } == "contacts[200].age")
        #expect(try store.schema() == schema)
        #expect(try store.tableCounts() == counts)
        #expect(try store.diagnose().allSatisfy(\.isHealthy))
    }
}

extension ContactStore {
    func importAll(_ drafts: [ContactDraft], deferringAfter minimum: Int, atOnce: Bool = false,
                   searchingEvery interval: Int = DeferredIndexes.searchCatchUpContacts) throws {
        let json = Self.json(drafts)
        do {
            _ = try write { db in
                try ImportPipeline(inputs: [.data(json, source: "big.json")], deferringIndexesAfter: minimum,
                                   searchCatchUpContacts: interval, deferringAtOnce: atOnce).run(db)
            }
        }
    }

    /// The drafts as one JSON array, as an import reads them.
    static func json(_ drafts: some Sequence<ContactDraft>) -> Data {
        Data(("[" + drafts.map(\.jsonText).joined(separator: ",") + "]").utf8)
    }

    func schemaVersion() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0 }
    }

    /// True when `phoneWindow` holds exactly the windows of the phones.
    func phoneWindowsMatchPhones() throws -> Bool {
        try read { db in try HealthChecks.holds(.phoneWindowsMatch, db) }
    }

    func schema() throws -> [Row] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
        }
    }
}

/// The phone search tables follow every write through the views their
/// triggers read (Schema/0005): a number found after it is added is not
/// found after it is replaced or its contact deleted, in either index.
@Suite struct PhoneSearchTriggerTests {
    @Test func searchFollowsAddsUpdatesAndDeletes() throws {
        let store = try ContactStore.makeEmpty()
        let id = try store.add(ContactDraft(firstName: "Ann", phones: [Phone(value: "+7 912 345-67-89")])).id
        func found(_ text: String) throws -> [String] { try store.ids(matching: ContactQuery().filter(.phone(text))) }
        #expect(try found("4567") == [id] && found("+79123456789") == [id])
        try store.update(id: id) { $0.phones = [Phone(value: "+7 903 111-22-33")] }
        #expect(try found("4567").isEmpty && found("+79123456789").isEmpty)
        #expect(try found("1112") == [id] && found("+79031112233") == [id])
        try store.delete(ids: [id])
        #expect(try found("1112").isEmpty && found("+79031112233").isEmpty)
        #expect(try store.diagnose().allSatisfy(\.isHealthy))
    }
}

extension DeferredIndexesTests {
    /// A contact deleted and then imported again by a deferred import is
    /// added, not still deleted: the tombstone goes as the trigger would
    /// have taken it, once the import ends.
    @Test func aDeferredImportTakesBackTheTombstonesOfWhatItAdds() throws {
        let store = try ContactStore.makeEmpty()
        try store.add(Array(Self.drafts.prefix(60)))
        let before = try store.changes(since: nil).token
        try store.delete(ids: ["c10", "c20"])
        // Last, so that it comes after the indexes and triggers were dropped.
        try store.importAll(Array(Self.drafts.dropFirst(60)) + [Self.drafts[10]], deferringAfter: 50)
        let changes = try store.changes(since: before).changes
        #expect(changes.first { $0.id == "c10" }?.kind == .added)
        #expect(changes.first { $0.id == "c20" }?.kind == .deleted)
        #expect(try store.read { db in try String.fetchAll(db, sql: "SELECT id FROM contactTombstone") } == ["c20"])
    }
}

extension DeferredIndexesTests {
    /// A writer told that fewer contacts are coming than the threshold
    /// keeps every index until they are written; told that enough are, it
    /// drops them before the first, and builds them back at the end.
    @Test func expectingEnoughContactsDefersBeforeTheFirst() throws {
        let store = try ContactStore.makeEmpty()
        let schema = try store.schema()
        func hasNameIndex(_ db: Database) throws -> Bool {
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'contact_on_lastName_asc')")!
        }
        try store.write { db in
            var indexes = try DeferredIndexes(db, minimumContacts: 50)
            try indexes.expect(49, db)
            #expect(try hasNameIndex(db))
            try indexes.expect(50, db)
            #expect(try !hasNameIndex(db))
            let writer = try ContactWriter(db)
            for (count, draft) in Self.drafts.prefix(50).enumerated() {
                _ = try writer.insert(draft, at: "", now: Timestamp.string(from: Date()))
                try indexes.didInsert(count + 1, db)
            }
            try indexes.finish(db)
            #expect(try hasNameIndex(db))
        }
        #expect(try store.schema() == schema)
        #expect(try store.diagnose().allSatisfy(\.isHealthy))
        let rowByRow = try ContactStore.makeEmpty()
        try rowByRow.add(Array(Self.drafts.prefix(50)))
        for query in [ContactQuery().filter(.text("call")), ContactQuery().filter(.namePrefix("an")),
                      ContactQuery().filter(.has(.phone)).sorted(by: .lastName, descending: true)] {
            let ids = try store.ids(matching: query)
            #expect(!ids.isEmpty)
            #expect(ids == (try rowByRow.ids(matching: query)))
        }
    }

    /// A writer that must change a contact while deferring stops deferring
    /// first: the contact replaced and the one deleted then leave the
    /// indexes as row-by-row writes would, the replacement's new phone
    /// and words found.
    @Test func aContactChangedOnceDeferringStoppedIsIndexedAsItWouldBe() throws {
        let store = try ContactStore.makeEmpty()
        try store.write { db in
            let writer = try ContactWriter(db)
            var indexes = try DeferredIndexes(db, minimumContacts: 50, searchingEvery: 64)
            for (count, draft) in Self.drafts.enumerated() {
                _ = try writer.insert(draft, at: "", now: Timestamp.string(from: Date()))
                try indexes.didInsert(count + 1, db)
            }
            try indexes.stopDeferring(db)
            let pks = try ContactReader.pks(ids: ["c120", "c121"], db)
            var replacement = Self.drafts[120]
            (replacement.firstName, replacement.phones) = ("Zinovia", [Phone(value: "+7 903 111-22-33")])
            try writer.replace(pk: pks[0], replacement, createdAt: Date(), updatedAt: Date())
            try ContactWriter.delete([pks[1]], db)
            try indexes.finish(db)
        }
        #expect(try store.diagnose().allSatisfy(\.isHealthy))
        #expect(try store.ids(matching: ContactQuery().filter(.phone("1112233"))) == ["c120"])
        #expect(try store.ids(matching: ContactQuery().filter(.text("zinovia"))) == ["c120"])
        #expect(try store.contact(id: "c121") == nil)
    }
}

extension DeferredIndexesTests {
    /// Contacts inserted with a person while the person triggers are
    /// deferred head their person, carry its attributes and are counted
    /// once the import ends, as the triggers would have had them: two
    /// joining a person of stored contacts, two making a new one (copies
    /// of stored contacts' names, without their phones and the rest).
    @Test func contactsInsertedWithAPersonWhileDeferringAreLinkedAsRowByRow() throws {
        func linked(deferring: Bool) throws -> ContactStore {
            let store = try ContactStore.makeEmpty()
            try store.add(Array(Self.drafts.prefix(60)))
            try store.write { db in
                try db.execute(sql: "UPDATE contact SET personId = 1 WHERE id IN ('c1', 'c2')")
                var indexes = try DeferredIndexes(db, minimumContacts: 50)
                if deferring { try indexes.expect(60, db) }
                let triggers = """
                    SELECT count(*) FROM sqlite_master
                    WHERE name IN ('contact_person_insert', 'contact_personAttributes_insert', 'contact_personCounts_insert')
                    """
                #expect(try Int.fetchOne(db, sql: triggers) == (deferring ? 0 : 3))
                let writer = try ContactWriter(db)
                for draft in Self.drafts[60..<110] { _ = try writer.insert(draft, at: "", now: Timestamp.string(from: Date())) }
                for (id, person) in [("c3", 1), ("c4", 1), ("c5", 2), ("c6", 2)] {
                    try db.execute(sql: """
                        INSERT INTO contact (id, firstName, lastName, company, displayName, sortName, sectionKey, sortIndex,
                                             sortKey, createdAt, updatedAt, personId)
                        SELECT id || '-linked', firstName, lastName, company, displayName, sortName, sectionKey, sortIndex,
                               sortKey, createdAt, updatedAt, ?
                        FROM contact WHERE id = ?
                        """, arguments: [person, id])
                }
                try indexes.finish(db)
            }
            return store
        }
        let (deferred, rowByRow) = (try linked(deferring: true), try linked(deferring: false))
        func state(_ store: ContactStore) throws -> [[String]] {
            try store.read { db in
                try ["SELECT id, personId, isPersonHead, personAttributes FROM contact WHERE personId IS NOT NULL ORDER BY id",
                     "SELECT * FROM sectionCount ORDER BY sortIndex", "SELECT * FROM attributeCount ORDER BY attributes"].map { sql in
                    try Row.fetchAll(db, sql: sql).map(\.description)
                }
            }
        }
        let linkedRows = try state(rowByRow)[0]
        #expect(linkedRows.count == 6)
        #expect(linkedRows.filter { $0.contains("isPersonHead:1") }.count == 2)
        #expect(try state(deferred) == state(rowByRow))
        #expect(try deferred.diagnose().allSatisfy(\.isHealthy))
        for unified in [ContactQuery().unified(), ContactQuery().unified().filter(.has(.telegram))] {
            #expect(try deferred.ids(matching: unified) == rowByRow.ids(matching: unified))
            #expect(try deferred.count(matching: unified) == rowByRow.count(matching: unified))
        }
    }
}

extension DeferredIndexesTests {
    /// The person triggers' catch-ups find the linked contacts among those
    /// imported from the persons' index, not by reading every row the
    /// import wrote.
    @Test func thePersonCatchUpsReadThePersonsIndex() throws {
        let store = try ContactStore.makeEmpty()
        let plans = try store.read { db in
            try ["contact_person_insert", "contact_personAttributes_insert"].map { name in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + DeferredIndexes.triggers[name]!, arguments: [0])
                    .map { $0["detail"] as String }
            }
        }
        for plan in plans {
            #expect(plan.contains { $0.contains("contact_on_person") })
            #expect(!plan.contains { $0.contains("rowid>?") })
        }
    }
}
