import Foundation
import GRDBSQLite

/// The SQLite C API with nothing in between, for `bench`'s comparison:
/// prepared once, bound, stepped, columns read into Swift values.
package final class RawSQLite {
    private var handle: OpaquePointer?

    package init(path: String, writable: Bool = false) throws {
        let flags = writable ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            throw RawError(message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)")
        }
    }

    deinit { sqlite3_close_v2(handle) }

    package static var version: String { String(cString: sqlite3_libversion()) }

    /// Runs `sql`, one statement or several.
    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw RawError(message: String(cString: sqlite3_errmsg(handle)) + " in " + sql)
        }
    }

    func columnCount(of table: String) throws -> Int {
        try prepare(BenchmarkSQL.columnCount).firstInt([table])
    }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement
        else { throw RawError(message: String(cString: sqlite3_errmsg(handle))) }
        return Statement(statement)
    }

    /// A value bound in place (SQLITE_STATIC): its bytes are not copied.
    enum Value {
        case null, int(Int64), double(Double), text(UnsafeRawBufferPointer), blob(UnsafeRawBufferPointer)
    }

    struct RawError: Error, CustomStringConvertible {
        var message: String
        package var description: String { message }
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

        /// The first column of the first row (a count, a sum), 0 without one.
        func firstInt(_ values: [Any] = []) -> Int {
            var first: Int?
            run(values) { first = first ?? $0.int(0) }
            return first ?? 0
        }
        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        /// Every column from `first` on read into a Swift value of its type
        /// (integers, texts, blobs), as a model would hold them; returns a
        /// sum of them, so that nothing is read for nothing.
        func decoded(from first: Int32) -> Int {
            var sum = 0
            for column in first..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: sum &+= int(column)
                case SQLITE_TEXT: sum &+= text(column)?.utf8.count ?? 0
                case SQLITE_BLOB: sum &+= blob(column).count
                default: break
                }
            }
            return sum
        }
        func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        func type(_ column: Int32) -> Int32 { sqlite3_column_type(statement, column) }

        /// A text's or a blob's bytes, as stored.
        func bytes(_ column: Int32) -> UnsafeRawBufferPointer {
            let start = sqlite3_column_blob(statement, column)
            return UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, column)))
        }

        /// Binds `values`, which must outlive the step, runs the statement
        /// once and resets it.
        func step(binding values: [Value]) {
            for (index, value) in values.enumerated() {
                let position = Int32(index + 1)
                switch value {
                case .null: sqlite3_bind_null(statement, position)
                case .int(let int): sqlite3_bind_int64(statement, position, int)
                case .double(let double): sqlite3_bind_double(statement, position, double)
                case .text(let text):
                    // An empty text still needs an address, or it binds NULL.
                    let start = (text.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!).assumingMemoryBound(to: CChar.self)
                    sqlite3_bind_text(statement, position, start, Int32(text.count), nil)
                case .blob(let blob):
                    sqlite3_bind_blob(statement, position, blob.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(blob.count), nil)
                }
            }
            sqlite3_step(statement)
            sqlite3_reset(statement)
        }

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
