import ContactsDBTestSupport
import Foundation
import Testing

/// Standard input without end cannot grow the process: a photo stops being
/// read one byte past its limit, and `import -` goes through a temporary
/// file that the import maps as any file, its memory bounded by the batch.
/// Peak memory is measured by GNU time (Debian's `time`).
@Suite struct UnboundedInputTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    struct Run {
        var exitCode: Int32
        var stderr: String
        /// The process's peak resident memory, in MB.
        var peakMB: Int
    }

    /// Runs contactsdb under GNU time with its standard input `head`, then
    /// `chunk` `count` times, then `tail`.
    func run(_ arguments: [String], head: String = "", chunk: Data, count: Int, tail: String = "",
             environment: [String: String] = [:], written: Written? = nil) throws -> Run {
        let process = Process()
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        let peak = directory.path("peak-\(UUID().uuidString)")
        process.arguments = ["-f", "%M", "-o", peak, CLIRunner.binary.path] + arguments
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        let errors = directory.path("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        let writer = Thread {
            // A reader that stops early closes the pipe: the writes then
            // fail, which ends this thread.
            signal(SIGPIPE, SIG_IGN)
            let handle = input.fileHandleForWriting
            do {
                try handle.write(contentsOf: Data(head.utf8))
                for _ in 0..<count {
                    try handle.write(contentsOf: chunk)
                    written?.add()
                }
                try handle.write(contentsOf: Data(tail.utf8))
            } catch {}
            try? handle.close()
        }
        writer.start()
        process.waitUntilExit()
        let kilobytes = try CLIRunner.peakKilobytes(writtenTo: peak)
        return Run(exitCode: process.terminationStatus, stderr: try String(contentsOfFile: errors, encoding: .utf8),
                   peakMB: kilobytes / 1024)
    }

    /// Chunks a writer got into the pipe before the reader stopped.
    final class Written: @unchecked Sendable {
        private let lock = NSLock()
        private var chunks = 0
        func add() { lock.withLock { chunks += 1 } }
        var count: Int { lock.withLock { chunks } }
    }

    /// Issue 44, item 3: `import -` of input no reader takes is refused at
    /// its first byte that cannot be one, long before its end (each of
    /// these ran until 300 MB had been copied), and leaves nothing in
    /// TMPDIR.
    @Test(arguments: [
        ("garbage", "", Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) | 0x80 })),
        ("cards opened without end", "", Data(String(repeating: "BEGIN:VCARD\r\n", count: 80_000).utf8)),
        ("JSON nested without end", "", Data(String(repeating: "[", count: 1 << 20).utf8)),
        ("binary after a JSON prefix", #"[{"firstName": "Ann"}, {"firstName": ""#, Data(repeating: 0x01, count: 1 << 20)),
        ("text after the JSON value", #"[{"firstName": "Ann"}]"#, Data(String(repeating: "x", count: 1 << 20).utf8)),
    ] as [(String, String, Data)])
    func importOfInputNoReaderTakesStopsAtItsFirstBadByte(shape: String, head: String, chunk: Data) throws {
        let db = try cli.makeEmptyDatabase("garbage-\(UUID().uuidString).sqlite", in: directory)
        let temporary = directory.path("tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let written = Written()
        let result = try run(["--db", db, "import", "-"], head: head, chunk: chunk, count: 300,
                             environment: ["TMPDIR": temporary], written: written)
        #expect(result.exitCode == 65, "\(shape): \(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: stdin line "), "\(shape): \(result.stderr)")
        #expect(written.count < 100, "\(shape): \(written.count) MB were taken in before the refusal")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [], "\(shape)")
        #expect(try cli.run(db: db, ["query", "--count"]).stdout == "0\n")
    }

    /// Issue 44, item 3: the copy of stdin is unlinked as soon as it is
    /// made, so a killed import leaves nothing behind (SIGKILL stands for
    /// every signal: the test runner's children inherit its blocked ones).
    @Test(arguments: [SIGKILL])
    func aKilledImportFromStdinLeavesNoCopy(signal: Int32) throws {
        let db = try cli.makeEmptyDatabase("killed-\(signal).sqlite", in: directory)
        let temporary = directory.path("tmp-killed-\(signal)")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["--db", db, "import", "-"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary]) { _, new in new }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let writer = Thread {
            Foundation.signal(SIGPIPE, SIG_IGN)
            var chunk = Data(#"{"firstName": "Pad"},"#.utf8)
            chunk += Data(repeating: UInt8(ascii: " "), count: (1 << 20) - chunk.count)
            let handle = input.fileHandleForWriting
            do {
                try handle.write(contentsOf: Data("[".utf8))
                for _ in 0..<600 { try handle.write(contentsOf: chunk) }
            } catch {}
        }
        writer.start()
        // The copy under way (the writer has 600 MB to give).
        sleep(2)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationStatus != 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [], "a copy of stdin was left behind")
    }

    /// Issue 44, item 6: `duplicates` over 100,000 contacts under a tight
    /// address-space limit ends with one sentence and 70 or 74, never a
    /// hang (releasing the store once waited for ever on libdispatch for a
    /// thread it could not make).
    @Test func duplicatesUnderATightMemoryLimitFailsWithASentenceAndNeverHangs() throws {
        let db = try cli.makeEmptyDatabase("limited.sqlite", in: directory)
        let generated = directory.path("100k.json")
        let made = try DAVPeers.runToEnd("/bin/sh", ["-c", "\"$0\" generate --contacts 100000 > \"$1\"", CLIRunner.binary.path, generated])
        #expect(made.status == 0, "\(made.output)")
        #expect(try cli.run(db: db, ["import", generated]).exitCode == 0)
        for limit in ["200M", "256M", "256M"] {
            let started = Date()
            let result = try DAVPeers.runToEnd("/usr/bin/timeout", ["120", "prlimit", "--as=\(limit.dropLast())000000",
                                                                    CLIRunner.binary.path, "--db", db, "duplicates", "--format", "json"])
            #expect([0, 70, 74].contains(result.status), "under \(limit): exit \(result.status) after \(Date().timeIntervalSince(started)) s")
            if result.status != 0 {
                let errors = result.output.split(separator: "\n").filter { !$0.hasPrefix("[") }
                #expect(errors.count == 1 && errors[0].hasPrefix("Error: "), "under \(limit): \(result.output.prefix(500))")
            }
        }
    }

    @Test func aPhotoFromAnEndlessStdinIsRefusedAtItsLimit() throws {
        let db = try cli.makeDatabase(in: directory)
        let result = try run(["--db", db, "photo", "set", "seed-acme", "-"], chunk: Data(count: 1 << 20), count: 300)
        #expect(result.exitCode == 65, "\(result.stderr)")
        #expect(result.stderr.contains("more than the 10485760 a photo may have"), "\(result.stderr)")
        #expect(result.peakMB < 100, "peak \(result.peakMB) MB")
    }

    @Test func importFromStdinStaysWithinItsBatchWhateverItsSize() throws {
        let db = try cli.makeEmptyDatabase("stdin.sqlite", in: directory)
        // 200 MB: a contact, then white space, a megabyte at a time.
        var chunk = Data(#"{"firstName": "Pad"},"#.utf8)
        chunk += Data(repeating: UInt8(ascii: " "), count: (1 << 20) - chunk.count)
        let result = try run(["--db", db, "import", "-"], head: "[", chunk: chunk, count: 200, tail: #"{"firstName": "Tail"}]"#)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.peakMB < 120, "peak \(result.peakMB) MB for 200 MB of input")
        #expect(try cli.run(db: db, ["query", "--name", "pad", "--count"]).stdout == "200\n")
        #expect(try cli.run(db: db, ["query", "--name", "tail", "--count"]).stdout == "1\n")
        // Errors name stdin, not the temporary file.
        let broken = try cli.run(db: db, ["import", "-"], stdin: "[{\"firstName\": ")
        #expect(broken.exitCode == 65 && broken.stderr.contains("stdin"), "\(broken.stderr)")
    }

    /// A CSV file with a field of 300 MB is refused at the record's 4 MB
    /// limit, before any of the field is held or decoded: under an
    /// address-space limit of 800 MB, with one sentence and 65.
    @Test func aHugeCSVFieldIsRefusedBeforeItIsHeld() throws {
        let db = try cli.makeEmptyDatabase("field.sqlite", in: directory)
        // A file, read through its memory map (stdin is checked as it streams in).
        let file = directory.path("field.csv")
        FileManager.default.createFile(atPath: file, contents: Data("First Name,Notes\r\nAnn,\"".utf8))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.seekToEnd()
        for _ in 0..<300 { try handle.write(contentsOf: Data(repeating: UInt8(ascii: "a"), count: 1 << 20)) }
        try handle.write(contentsOf: Data("\"\r\n".utf8))
        try handle.close()
        // The file's map takes 300 MB of the 800; its field held and decoded
        // would take twice that again.
        let result = try CLIRunner(binary: URL(fileURLWithPath: "/usr/bin/prlimit"))
            .run(["--as=800000000", CLIRunner.binary.path, "--db", db, "import", file])
        #expect(result.exitCode == 65 && result.stderr.contains("runs past 4 MB"), "\(result.stderr)")
        #expect(try cli.run(db: db, ["query", "--count"]).stdout == "0\n")
    }

    /// A UTF-16 CSV file imports under an address-space limit where its
    /// UTF-8 twin of the same size does: its UTF-8 form is made once, at
    /// its size (half the file's, for ASCII), beside the file's map.
    /// With room for three UTF-8 bytes a unit it exited 70 here.
    @Test func aUTF16FileImportsWithinTheLimitItsUTF8TwinNeeds() throws {
        // Two contacts with 32 million blank lines between them (a blank
        // line is no record), 128 MB in UTF-16LE with its byte-order mark; the
        // twin holds twice the lines in UTF-8: the files are one size.
        func write(_ name: String, blankLines: Int, encode: (String) -> Data) throws -> String {
            let file = directory.path(name)
            FileManager.default.createFile(atPath: file, contents: encode("First Name,Last Name\r\nAnn,Lee\r\n"))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
            try handle.seekToEnd()
            let megabyte = encode(String(repeating: "\r\n", count: (1 << 20) / 2))
            for _ in 0..<blankLines / (1 << 19) { try handle.write(contentsOf: megabyte) }
            try handle.write(contentsOf: encode("Bo,Kim\r\n"))
            try handle.close()
            return file
        }
        let lines = 64 << 19
        let wide = try write("wide.csv", blankLines: lines) { text in
            (text.hasPrefix("First") ? Data([0xFF, 0xFE]) : Data()) + text.data(using: .utf16LittleEndian)!
        }
        let narrow = try write("narrow.csv", blankLines: 2 * lines) { Data($0.utf8) }
        let sizes = try [wide, narrow].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0 }
        #expect(abs(sizes[0] - sizes[1]) < 64, "\(sizes)")
        for file in [narrow, wide] {
            let db = try cli.makeEmptyDatabase(UUID().uuidString + ".sqlite", in: directory)
            let result = try CLIRunner(binary: URL(fileURLWithPath: "/usr/bin/prlimit"))
                .run(["--as=\(Self.utf16Limit)", CLIRunner.binary.path, "--db", db, "import", file])
            #expect(result.exitCode == 0, "\(file): \(result.stderr)")
            #expect(try cli.run(db: db, ["query", "--format", "csv"]).stdout.contains("Bo"), "\(file)")
            #expect(try cli.run(db: db, ["query", "--count"]).stdout == "2\n", "\(file)")
        }
    }

    /// The UTF-8 twin needs about 300 MB here, the UTF-16 file 410; with
    /// room for the longest UTF-8 it might have been (three bytes a unit)
    /// it needed 540 and more.
    static let utf16Limit = 480_000_000
}
