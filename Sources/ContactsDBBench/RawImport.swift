import CPhoneNumber
import ContactsDB
import Foundation
import GRDBSQLite

/// `bench`'s raw twin of the import: the same rows written with SQLite's C
/// API and the same libphonenumber calls made through its C++ API, with
/// nothing of the engine in between, as the floor the engine is measured
/// against.
///
/// The rows are copied from the database the engine imported, every base
/// table's, into memory first. The twin then makes a new database with the
/// same schema and settings (WAL, the same cache), inserts each row through
/// a statement prepared once, in the order a bulk load would (table by
/// table, each in its key's order), and builds what is derived from the
/// rows once at the end, from the same views and columns the engine's
/// deferred import reads: the indexes and triggers, the phone windows and
/// the counts, then the two full-text indexes; then it commits. Apart from
/// that, it reads every stored number as the engine reads one: in the
/// database's default regions in order until one finds it valid, or as
/// written when it has `+`, with its displayed form (all but the plain
/// Russian ones, which the engine reads without libphonenumber).
package struct RawImport {
    /// Seconds of each phase, and of both sides run at once.
    package struct Times: Encodable {
        /// Inserting the rows.
        package var rows = 0.0
        /// Indexes, triggers, phone windows and counts.
        package var indexBuild = 0.0
        /// The phone digits' and the text's full-text indexes.
        package var searchIndex = 0.0
        package var commit = 0.0
        /// The libphonenumber calls alone, on this thread.
        package var phones = 0.0
        /// The SQLite load with the phones read on a second thread beside it.
        package var together = 0.0

        package var sqlite: Double { rows + indexBuild + searchIndex + commit }
    }

    private var schema: [(type: String, name: String, sql: String)] = []
    private var tables: [(name: String, columns: Int, rows: RowTape)] = []
    private var phones: [String] = []
    private var regions: [String] = []

    /// Reads the schema, the rows and the numbers of the database at `path`.
    package init(copying path: String, regions: PhoneRegions) throws {
        let source = try RawSQLite(path: path)
        self.regions = regions.codes
        var virtual: [String] = []
        try source.prepare(BenchmarkSQL.schemaObjects).run { row in
            let (type, name, sql) = (row.text(0) ?? "", row.text(1) ?? "", row.text(2) ?? "")
            if sql.hasPrefix(BenchmarkSQL.virtualTablePrefix) { virtual.append(name) }
            // A virtual table makes its own shadow tables, SQLite its own.
            guard !virtual.contains(where: { name.hasPrefix($0 + "_") }), !name.hasPrefix("sqlite_") else { return }
            schema.append((type, name, sql))
        }
        for (type, name, sql) in schema
        where type == "table" && !sql.hasPrefix(BenchmarkSQL.virtualTablePrefix) && !BenchmarkSQL.derivedTables.contains(name) {
            let columns = try source.columnCount(of: name)
            var tape = RowTape()
            try source.prepare(BenchmarkSQL.rows(of: name)).run { row in tape.append(row, columns: columns) }
            tables.append((name, columns, tape))
        }
        try source.prepare(BenchmarkSQL.storedNumbers).run { phones.append($0.text(0) ?? "") }
    }

    /// Runs the twin into a new database at `path`.
    package func run(into path: String) throws -> Times {
        var times = try load(into: path + "-apart")
        times.phones = Stopwatch.seconds { readPhones() }
        let phonesDone = DispatchSemaphore(value: 0)
        times.together = try Stopwatch.seconds {
            Thread { [self] in
                readPhones()
                phonesDone.signal()
            }.start()
            _ = try load(into: path)
            phonesDone.wait()
        }
        return times
    }

    // MARK: - Non public

    /// The SQLite load alone, into a new database at `path`, removed after.
    private func load(into path: String) throws -> Times {
        var times = Times()
        func remove() { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        remove()
        defer { remove() }
        let db = try RawSQLite(path: path, writable: true)
        try db.execute(BenchmarkSQL.importSettings)
        for (type, _, sql) in schema where type == "table" || type == "view" { try db.execute(sql) }
        try db.execute(BenchmarkSQL.begin)
        times.rows = try Stopwatch.seconds {
            for table in tables {
                let insert = try db.prepare(BenchmarkSQL.insert(into: table.name, columns: table.columns))
                table.rows.forEachRow(columns: table.columns) { insert.step(binding: $0) }
            }
        }
        times.indexBuild = try Stopwatch.seconds {
            for (type, _, sql) in schema where type == "index" || type == "trigger" { try db.execute(sql) }
            for sql in BenchmarkSQL.derivedRows { try db.execute(sql) }
        }
        times.searchIndex = try Stopwatch.seconds { for sql in BenchmarkSQL.searchRows { try db.execute(sql) } }
        times.commit = try Stopwatch.seconds { try db.execute(BenchmarkSQL.commit) }
        return times
    }

    /// The calls the engine makes for each stored number (PhoneNumber.swift).
    private func readPhones() {
        let defaults = regions.joined(separator: ",")
        var e164 = [CChar](repeating: 0, count: 64), shown = [CChar](repeating: 0, count: 64)
        defaults.withCString { codes in
            shown.withUnsafeMutableBufferPointer { shown in
                // The numbers the engine reads without a parse it skips too.
                for phone in phones where PhoneNumber.plainRussian(phone) == nil {
                    let plus = phone.hasPrefix("+")
                    var request = cpn_display_request(
                        regions: codes, forInvalid: plus ? 1 : 0, exceptCountry: 7, shown: shown.baseAddress, capacity: 64)
                    if plus {
                        _ = cpn_e164(phone, "ZZ", 0, &e164, 64, &request)
                    } else {
                        _ = regions.first { cpn_e164(phone, $0, 1, &e164, 64, &request) == 1 }
                    }
                }
            }
        }
    }
}

/// Rows held as SQLite gave them, one after another in one buffer: a type
/// byte, then an integer's or a real's 8 bytes, or a length and the bytes
/// of a text or blob. Binding reads them in place.
private struct RowTape {
    private var bytes: [UInt8] = []

    mutating func append(_ row: RawSQLite.Statement, columns: Int) {
        for column in 0..<Int32(columns) {
            let type = row.type(column)
            bytes.append(UInt8(type))
            switch type {
            case SQLITE_INTEGER: withUnsafeBytes(of: row.int64(column)) { bytes += $0 }
            case SQLITE_FLOAT: withUnsafeBytes(of: row.double(column)) { bytes += $0 }
            case SQLITE_TEXT, SQLITE_BLOB:
                let value = row.bytes(column)
                withUnsafeBytes(of: Int64(value.count)) { bytes += $0 }
                bytes += value
            default: break
            }
        }
    }

    /// Hands each row to `body` as the values to bind, pointing into the tape.
    func forEachRow(columns: Int, _ body: ([RawSQLite.Value]) -> Void) {
        bytes.withUnsafeBytes { tape in
            var offset = 0
            var values = [RawSQLite.Value](repeating: .null, count: columns)
            func int64() -> Int64 {
                defer { offset += 8 }
                return tape.loadUnaligned(fromByteOffset: offset, as: Int64.self)
            }
            while offset < tape.count {
                for column in 0..<columns {
                    let type = Int32(tape[offset])
                    offset += 1
                    switch type {
                    case SQLITE_INTEGER: values[column] = .int(int64())
                    case SQLITE_FLOAT: values[column] = .double(Double(bitPattern: UInt64(bitPattern: int64())))
                    case SQLITE_TEXT, SQLITE_BLOB:
                        let count = Int(int64())
                        let slice = UnsafeRawBufferPointer(rebasing: tape[offset..<offset + count])
                        values[column] = type == SQLITE_TEXT ? .text(slice) : .blob(slice)
                        offset += count
                    default: values[column] = .null
                    }
                }
                body(values)
            }
        }
    }
}
