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
    func run(_ arguments: [String], head: String = "", chunk: Data, count: Int, tail: String = "") throws -> Run {
        let process = Process()
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
                for _ in 0..<count { try handle.write(contentsOf: chunk) }
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
}
