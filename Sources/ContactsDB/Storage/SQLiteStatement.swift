import Foundation
import GRDB
import GRDBSQLite

/// A statement prepared on GRDB's connection and driven through SQLite's C
/// API: the bulk-write path binds values straight from Swift, without
/// boxing them into `StatementArguments` for every row. GRDB still owns the
/// connection and the transaction.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: OpaquePointer
    private let sql: String

    init(_ db: Database, _ sql: String) throws {
        guard let connection = db.sqliteConnection else { throw DatabaseError(resultCode: .SQLITE_MISUSE) }
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    func execute(_ values: Value...) throws {
        try execute(values)
    }

    /// Binds the values in order, runs the statement to completion and
    /// resets it.
    func execute(_ values: [Value]) throws {
        try bindAndStep(values, from: 0)
    }

    /// Binds each text and blob in place, without SQLite copying it: the
    /// binding recurses, so that the step runs while every value's bytes
    /// are being accessed, as long as SQLite reads them.
    private func bindAndStep(_ values: [Value], from index: Int) throws {
        guard index < values.count else { return try run() }
        let position = Int32(index + 1)
        switch values[index] {
        case .null:
            sqlite3_bind_null(handle, position)
        case .int(let int):
            sqlite3_bind_int64(handle, position, Int64(int))
        case .text(var text):
            return try text.withUTF8 {
                sqlite3_bind_text(handle, position, $0.baseAddress, Int32($0.count), nil)
                try bindAndStep(values, from: index + 1)
            }
        case .blob(let data):
            return try data.withUnsafeBytes {
                sqlite3_bind_blob(handle, position, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), nil)
                try bindAndStep(values, from: index + 1)
            }
        }
        try bindAndStep(values, from: index + 1)
    }

    // The binding for values whose bytes the caller keeps until ``run()``
    // returns (``ContactRows``): SQLite reads them in place.

    func bind(_ value: Int64, at position: Int32) {
        sqlite3_bind_int64(handle, position, value)
    }

    func bindNull(at position: Int32) {
        sqlite3_bind_null(handle, position)
    }

    func bindText(_ bytes: UnsafeRawBufferPointer, at position: Int32) {
        // A null pointer would bind NULL, not an empty text.
        sqlite3_bind_text(handle, position, (bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)
            .assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
    }

    /// Binds a text that SQLite copies, or NULL: for a value seldom there,
    /// where the copy costs less than keeping its bytes alive.
    func bindCopying(_ text: String?, at position: Int32) {
        guard let text else { return bindNull(at: position) }
        sqlite3_bind_text(handle, position, text, Int32(text.utf8.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }

    func bindBlob(_ bytes: UnsafeRawBufferPointer, at position: Int32) {
        sqlite3_bind_blob(handle, position, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), nil)
    }

    /// Runs the statement with the values bound so far, to completion, and
    /// resets it.
    func run() throws {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        // The bound bytes are gone once the binding returns.
        sqlite3_clear_bindings(handle)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
    }

    /// ``execute(_:)``, returning how many rows it changed.
    func executeCountingChanges(_ values: Value...) throws -> Int {
        try execute(values)
        return Int(sqlite3_changes(connection))
    }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(connection) }

    enum Value {
        case null, int(Int), text(String), blob(Data)

        static func text(_ text: String?) -> Value { text.map(Value.text) ?? .null }
        static func int(_ int: Int?) -> Value { int.map(Value.int) ?? .null }
        static func blob(_ data: Data?) -> Value { data.map(Value.blob) ?? .null }
        static func bool(_ bool: Bool) -> Value { .int(bool ? 1 : 0) }
    }
}
