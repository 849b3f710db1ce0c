import ArgumentParser
import ContactsDB
import ContactsDBBench
import ContactsDBSynthetic
import Foundation

extension ContactsDBCommand {
    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bench",
            abstract: "Time the import and the standard queries on a synthetic data set.",
            discussion: """
                Generates --contacts synthetic contacts (as `generate` does, --photos percent of them with a \
                photo), imports them into a temporary \
                database through the same code path as `import` (with --books N, dealt round-robin into N \
                address books, the default and `book-2` onwards), then runs each standard query --runs times \
                warm through the library and as hand-written SQL on the raw SQLite C API, alternating, and \
                reports medians and spreads. Before the queries it moves one of each of --links pairs of \
                contacts to a second book and links the pairs, and adds U1, U3, U4 and U8: Q1, Q3, Q4 and Q8 \
                with one row per person (`query --unified`), and U9–U14, pages of one row per person in \
                the other orders. With --watch-latency it times `watch` instead: it starts \
                `contactsdb watch` on the imported database in another process and reports how long each \
                of --commits writes here takes to come out there (median and p99). With --duplicates it \
                times `duplicates` (5 runs) on distinct people with planted sets and checks what it finds \
                against them, then merges and takes back 20 pairs one by one and merges every certain set. \
                Nothing outside the temporary directory is touched.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

        @Option(help: "How many contacts.") var contacts = 100_000
        @Option(help: "Timed runs of each query (at least 20).") var runs = 25
        @Option(help: "The data set's random seed.") var seed: UInt64 = 1
        @Option(help: "Output format.") var format: Format = .table
        @Option(help: "Address books the contacts are dealt into, one by one.") var books = 1
        @OptionGroup var photos: SyntheticPhotoOptions
        @Option(help: ArgumentHelp("Keep the benchmark database at this path (it must not exist).", valueName: "path"))
        var keep: String?
        @Flag(help: "Time `watch` in another process instead of the queries.") var watchLatency = false
        @Option(help: "Writes timed by --watch-latency.") var commits = 200
        @Option(help: ArgumentHelp(
            "Time `duplicates`, `merge` and `unmerge` instead, on distinct people with this many planted sets (as `generate --planted-duplicates`).",
            valueName: "sets"))
        var duplicates: Int?
        @Option(help: ArgumentHelp(
            "Links across books for the unified queries U1–U14 (default: a tenth of --contacts; 0 for none).",
            valueName: "count"))
        var links: Int?
        @OptionGroup var threads: WorkerOptions

        func validate() throws {
            if contacts < 100 { throw ValidationError("Please give --contacts 100 or more.") }
            if !(1...100).contains(books) { throw ValidationError("Please give --books from 1 to 100.") }
            if runs < 20 { throw ValidationError("Please give --runs 20 or more, so that medians mean something.") }
            if commits < 1 { throw ValidationError("Please give --commits 1 or more.") }
            if let duplicates, duplicates < 1 || duplicates * 4 > contacts {
                throw ValidationError("Please give --duplicates from 1 to a quarter of --contacts.")
            }
            if let links, links < 0 || links * 2 > contacts {
                throw ValidationError("Please give --links from 0 to half of --contacts.")
            }
            if let keep, FileManager.default.fileExists(atPath: keep) {
                throw ValidationError("Please give --keep a path that does not exist yet (\(keep) does).")
            }
        }

        func run() throws {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("contactsdb-bench-\(ProcessInfo.processInfo.processIdentifier)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }

            let photos = photos.value
            let planted = duplicates.map { PlantedDuplicates(count: contacts, sets: $0) }
            let files = try writeDataSet(
                planted.map { AnySequence($0) } ?? AnySequence(SyntheticContacts(count: contacts, seed: seed, photos: photos)),
                into: directory)
            var options = ContactStore.Options()
            options.seedsOnFirstOpen = false
            threads.apply(to: &options)
            let path = directory.appendingPathComponent("bench.sqlite").path
            let store = try ContactStore.open(at: path, options: options)
            // Neither a watcher nor a later open of a --keep copy seeds it.
            try store.declineBundledSeed()
            let bookNames = [nil] + (2...max(books, 2)).prefix(books - 1).map { "book-\($0)" }
            for case let name? in bookNames { try store.createBook(named: name) }

            let start = Stopwatch.now()
            let reports = try zip(files, bookNames).map { file, book in
                try store.importContacts(from: [.file(path: file)], intoBook: book)
            }
            let imported = reports.reduce(0) { $0 + $1.imported }
            let importSeconds = Double(Stopwatch.now() - start) / 1e9
            if let planted {
                let result = try DuplicatesBench.measure(store: store, contacts: imported, planted: planted.planted)
                print(format == .json ? try JSONOutput.line(result) : result.table)
                return
            }
            if watchLatency {
                let latency = try WatchLatency.measure(store: store, commits: commits)
                print(format == .json ? try JSONOutput.line(latency) : latency.table)
                return
            }
            let peakMemory = Stopwatch.peakMemoryBytes()
            let twin = try RawImport(copying: path, regions: store.phoneRegions())
                .run(into: directory.appendingPathComponent("twin.sqlite").path)
            // The queries on a connection opened after the import, as their
            // twins' is: on the one that imported, SQLite's FTS5 does more
            // for each full-text statement (a rare word's page took 106 µs
            // there and 68 µs on a new one, at 20,000 contacts).
            let links = links ?? contacts / 10
            try Self.link(links, in: store)
            let reopened = try ContactStore.open(at: path, options: options)
            let report = BenchReport(
                contacts: imported, runs: runs, importSeconds: importSeconds, importPhases: reports.map(\.phases).reduce(ImportPhases(), +),
                peakMemoryBytes: peakMemory, twin: twin, results: try measureQueries(store: reopened, path: path, unified: links > 0))
            print(format == .json ? try report.json() : report.table)
            if let keep { try store.backup(to: keep) }
        }

        /// The data set as one JSON file per book, each contact dealt to
        /// the next book in turn.
        private func writeDataSet(_ drafts: AnySequence<ContactDraft>, into directory: URL) throws -> [String] {
            let paths = (1...books).map { directory.appendingPathComponent("contacts-\($0).json").path }
            let files = try paths.map { try AtomicFile(path: $0) }
            var buffers = Array(repeating: "[", count: books)
            for (index, draft) in drafts.enumerated() {
                let book = index % books
                buffers[book] += (index < books ? "\n" : ",\n") + draft.jsonText
                if buffers[book].utf8.count > 1 << 20 {
                    try files[book].write(buffers[book])
                    buffers[book] = ""
                }
            }
            for (file, buffer) in zip(files, buffers) {
                try file.write(buffer + "\n]\n")
                try file.commit(replacingExisting: false)
            }
            return paths
        }

        /// Links `count` pairs of contacts spread over the default order, the
        /// second of each moved to a book of its own first.
        private static func link(_ count: Int, in store: ContactStore) throws {
            guard count > 0 else { return }
            let ids = try store.ids(matching: ContactQuery())
            let stride = ids.count / count
            let pairs = (0..<count).map { [ids[$0 * stride], ids[$0 * stride + 1]] }
            try store.createBook(named: "linked")
            try store.move(ids: pairs.map { $0[1] }, toBook: "linked")
            try store.link(sets: pairs)
        }

        private func measureQueries(store: ContactStore, path: String, unified: Bool) throws -> [BenchReport.Result] {
            let raw = try RawSQLite(path: path)
            let probes = BenchQueries.phoneProbes(contacts: contacts, seed: seed)
            let rareWord = BenchQueries.rareWord(contacts: contacts, seed: seed)
            return try BenchQueries.make(store: store, raw: raw, phone: probes, rareWord: rareWord, unified: unified).map { query in
                let engineRows = try query.engine(), rawRows = query.raw()
                guard engineRows == rawRows else {
                    throw RowCountMismatch(query: query.name, engineRows: engineRows, rawRows: rawRows)
                }
                for _ in 0..<3 {
                    _ = try query.engine()
                    _ = query.raw()
                }
                var engine: [UInt64] = [], rawTimes: [UInt64] = []
                for _ in 0..<runs {
                    engine.append(try Stopwatch.time { _ = try query.engine() })
                    rawTimes.append(Stopwatch.time { _ = query.raw() })
                }
                return BenchReport.Result(query: query, rows: engineRows, engine: engine, raw: rawTimes)
            }
        }
    }
}

extension ImportPhases {
    /// The phases of imports run one after another, as one.
    static func + (lhs: ImportPhases, rhs: ImportPhases) -> ImportPhases {
        var sum = lhs
        sum.parse += rhs.parse
        sum.validateAndDerive += rhs.validateAndDerive
        sum.write += rhs.write
        sum.indexBuild += rhs.indexBuild
        sum.searchIndex += rhs.searchIndex
        sum.commit += rhs.commit
        return sum
    }
}

/// The engine and the raw SQL disagree on a query's rows: a bug, not bad
/// usage, so it exits 70 as an unexpected failure.
struct RowCountMismatch: LocalizedError {
    var query: String
    var engineRows: Int
    var rawRows: Int

    var errorDescription: String? { "\(query): the engine found \(engineRows) rows but the raw SQL \(rawRows)" }
}
