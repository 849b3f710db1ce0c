import Foundation
import GRDB
import GRDBSQLite

/// The current row of a statement stepped through SQLite's C API.
struct RawRow {
    let handle: OpaquePointer

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func bookID(_ column: Int32) -> BookID { BookID(rawValue: sqlite3_column_int64(handle, column)) }
    func bool(_ column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }

    func optionalInt(_ column: Int32) -> Int? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : int(column)
    }

    func text(_ column: Int32) -> String {
        // The text first, then its length, as SQLite's documentation asks.
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }

    func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : text(column)
    }

    func optionalBlob(_ column: Int32) -> Data? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : blob(column)
    }
}

extension Database {
    /// Runs a cached statement and hands each row to `body`, read through
    /// SQLite's C API: a page of contacts reads a dozen columns from each
    /// of a few hundred rows, where GRDB's `Row` costs more than the reading.
    func forEachRow(_ sql: String, _ arguments: StatementArguments, _ body: (RawRow) throws -> Void) throws {
        let statement = try cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW:
                try body(RawRow(handle: handle))
            case SQLITE_DONE:
                return
            case let code:
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: lastErrorMessage, sql: sql)
            }
        }
    }
}
