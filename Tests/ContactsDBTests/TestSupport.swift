import ContactsDBTestSupport
import Foundation
import GRDB
@testable import ContactsDB


extension ContactStore {
    /// A fresh in-memory store without the bundled seed.
    static func makeEmpty() throws -> ContactStore {
        var options = Options()
        options.seedsOnFirstOpen = false
        return try makeInMemory(options: options)
    }

    /// Rows of a table, read straight from SQL.
    func rowCount(_ table: String) throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }

    /// Row counts of every contact table: equal before and after a failed
    /// write shows that nothing was written.
    func tableCounts() throws -> [Int] {
        try ["contact", "phone", "email", "address", "messenger", "nameWord", "seedImport", "setting"].map(rowCount)
    }
}

extension ContactStore.Options {
    static func migrations(_ migrations: [SchemaMigration], seeding: Bool = false) -> Self {
        var options = Self()
        options.migrations = migrations
        options.seedsOnFirstOpen = seeding
        return options
    }
}

/// Runs `body`, expecting a ``ContactsDBError``, and returns it.
func captureError(_ body: () throws -> Void) -> ContactsDBError? {
    do {
        try body()
        return nil
    } catch let error as ContactsDBError {
        return error
    } catch {
        return .databaseFailure(reason: "unexpected \(error)")
    }
}

/// The field named by an invalid-contact error.
func invalidField(_ body: () throws -> Void) -> String? {
    guard case let .invalidContact(field, _)? = captureError(body) else { return nil }
    return field
}
