import Foundation
import GRDBSQLite

/// The SQLite C API with nothing in between, for `bench`'s comparison:
/// prepared once, bound, stepped, columns read into Swift values.
final class RawSQLite {
    private var handle: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            throw RawError(message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)")
        }
    }

    deinit { sqlite3_close_v2(handle) }

    static var version: String { String(cString: sqlite3_libversion()) }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement
        else { throw RawError(message: String(cString: sqlite3_errmsg(handle))) }
        return Statement(statement)
    }

    struct RawError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    final class Statement {
        private let statement: OpaquePointer
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        init(_ statement: OpaquePointer) { self.statement = statement }
        deinit { sqlite3_finalize(statement) }

        /// Binds `values` (Int, String or Data), steps through every row and
        /// hands each to `row`, then resets.
        func run(_ values: [Any] = [], row: (Statement) -> Void) {
            for (index, value) in values.enumerated() {
                let position = Int32(index + 1)
                switch value {
                case let int as Int: sqlite3_bind_int64(statement, position, Int64(int))
                case let text as String: sqlite3_bind_text(statement, position, text, -1, Self.transient)
                case let data as Data:
                    _ = data.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, Int32(data.count), Self.transient) }
                default: sqlite3_bind_null(statement, position)
                }
            }
            while sqlite3_step(statement) == SQLITE_ROW { row(self) }
            sqlite3_reset(statement)
        }

        func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

        func blob(_ column: Int32) -> Data {
            guard let bytes = sqlite3_column_blob(statement, column) else { return Data() }
            return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, column)))
        }

        func text(_ column: Int32) -> String? {
            guard let bytes = sqlite3_column_text(statement, column) else { return nil }
            return String(cString: bytes)
        }
    }
}
