import CVips
import ContactsDB
import ContactsDBTestSupport
import Foundation
import Testing

/// `photo set/get/remove`, `--has photo` and photos through import and
/// export, each command a process of its own.
@Suite struct PhotoCommandTests {
    let directory = TemporaryDirectory()
    let cli = CLIRunner()

    func file(_ name: String, _ data: Data) throws -> String {
        let path = directory.path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    func read(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func setGetAndRemoveAPhoto() throws {
        let db = try cli.makeDatabase(in: directory)
        let jpeg = try PhotoImage.sample(width: 800, height: 600, format: CVIPS_JPEG)
        let path = try file("anna.jpg", jpeg)
        let set = try cli.run(db: db, ["photo", "set", "seed-anna-muller", path])
        #expect(set.exitCode == 0 && set.stdout.contains("image/jpeg"), "\(set.stderr)")

        let got = try cli.run(db: db, ["photo", "get", "seed-anna-muller"])
        #expect(got.exitCode == 0 && got.stdoutData == jpeg)
        let thumbnailPath = directory.path("thumb.jpg")
        #expect(try cli.run(db: db, ["photo", "get", "seed-anna-muller", "--thumbnail", "--output", thumbnailPath]).exitCode == 0)
        let thumbnail = try read(thumbnailPath)
        #expect(thumbnail.starts(with: [0xFF, 0xD8]) && thumbnail.count < jpeg.count)

        #expect(try cli.run(db: db, ["query", "--has", "photo", "--format", "ndjson"]).lines.count == 1)
        #expect(try cli.run(db: db, ["query", "--has", "photo", "--count"]).stdout.contains("1"))
        let json = try cli.run(db: db, ["query", "--format", "json"]).stdout
        #expect(json.contains(#""hasPhoto": true"#) && !json.contains("\"photo\"") && !json.contains("/9j/"))
        let table = try cli.run(db: db, ["query"]).lines
        #expect(table[0].contains("PHOTO"))
        #expect(table.filter { $0.contains("yes") }.count == 1 && table.contains { $0.hasPrefix("Anna Müller") && $0.contains("yes") })
        #expect(try cli.run(db: db, ["doctor"]).exitCode == 0)

        // A photo from stdin replaces it.
        let png = try PhotoImage.sample(width: 300, height: 300, format: CVIPS_PNG)
        let fromStdin = try cli.run(db: db, ["photo", "set", "seed-anna-muller", "-"], stdin: png.base64EncodedString())
        #expect(fromStdin.exitCode == 65, "base64 text is no image")

        #expect(try cli.run(db: db, ["photo", "remove", "seed-anna-muller"]).exitCode == 0)
        let gone = try cli.run(db: db, ["photo", "get", "seed-anna-muller"])
        #expect(gone.exitCode == 1 && gone.stderr.contains("has no photo"))
        #expect(try cli.run(db: db, ["query", "--has", "photo", "--format", "ndjson"]).lines.isEmpty)
    }

    /// libvips and the hundred libraries it brings are opened on the first
    /// photo, not loaded by every process before `main`.
    @Test func theBinaryLoadsLibvipsOnlyForPhotos() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [CLIRunner.binary.path]
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let libraries = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(libraries.contains("libsqlite3"), "ldd listed no libraries: \(libraries)")
        #expect(!libraries.contains("libvips"))
    }

    @Test func unknownIdsExit1() throws {
        let db = try cli.makeDatabase(in: directory)
        let path = try file("a.png", try PhotoImage.sample(width: 64, height: 64, format: CVIPS_PNG))
        for arguments in [["photo", "set", "nobody", path], ["photo", "get", "nobody"], ["photo", "remove", "nobody"]] {
            let result = try cli.run(db: db, arguments)
            #expect(result.exitCode == 1 && result.stderr.contains("\"nobody\""), "\(arguments)")
        }
    }

    @Test func hostilePhotosAreRefusedWith65AndNothingWritten() throws {
        let db = try cli.makeDatabase(in: directory)
        let before = try cli.run(db: db, ["export", "--format", "ndjson"]).stdout
        var big = try PhotoImage.sample(width: 64, height: 64, format: CVIPS_JPEG)
        big.append(Data(count: 10 * 1024 * 1024 + 1 - big.count))
        let jpeg = try PhotoImage.sample(width: 640, height: 480, format: CVIPS_JPEG)
        var bomb = try PhotoImage.sample(width: 16, height: 16, format: CVIPS_PNG)
        // IHDR's width and height made 20000×20000; libpng reads the
        // header before any checksum, and the engine stops there.
        let side = withUnsafeBytes(of: UInt32(20_000).bigEndian, Array.init)
        bomb.replaceSubrange(16..<24, with: side + side)
        let hostile: [(String, Data)] = [
            ("text.jpg", Data("not an image".utf8)), ("truncated.jpg", jpeg.prefix(jpeg.count / 2)),
            ("bomb.png", bomb), ("big.jpg", big),
            ("drawing.svg", Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="20000"/>"#.utf8)),
        ]
        for (name, data) in hostile {
            let result = try cli.run(db: db, ["photo", "set", "seed-anna-muller", try file(name, data)])
            #expect(result.exitCode == 65 && result.stderr.hasPrefix("Error: The photo"), "\(name): \(result.stderr)")
            let contact = #"{"firstName": "Eve", "photo": {"mediaType": "image/png", "data": "\#(data.base64EncodedString())"}}"#
            let added = try cli.run(db: db, ["add", "--json", try file(name + ".json", Data(contact.utf8))])
            #expect(added.exitCode == 65, "\(name): \(added.stderr)")
        }
        #expect(try cli.run(db: db, ["export", "--format", "ndjson"]).stdout == before)
    }

    @Test func importKeepsAnUndecodablePhotoAndCountsIt() throws {
        let db = try cli.makeEmptyDatabase("contacts.sqlite", in: directory)
        let broken = Data("not an image".utf8)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:eve\r\nN:Doe;Eve;;;\r\nPHOTO;ENCODING=b;TYPE=JPEG:\(broken.base64EncodedString())\r\nEND:VCARD\r\n"
        let imported = try cli.run(db: db, ["import", directory.write("eve.vcf", card)])
        #expect(imported.exitCode == 0 && imported.stderr.contains("1 undecodable photo (no thumbnail)"), "\(imported.stderr)")
        #expect(try cli.run(db: db, ["photo", "get", "eve"]).stdoutData == broken)
        let thumbnail = try cli.run(db: db, ["photo", "get", "eve", "--thumbnail"])
        #expect(thumbnail.exitCode == 1 && thumbnail.stderr.contains("no thumbnail"))
    }

    @Test(arguments: ["3.0", "4.0"]) func aVCard21PhotoComesOutByteForByte(_ version: String) throws {
        let db = try cli.makeEmptyDatabase("contacts.sqlite", in: directory)
        let jpeg = try PhotoImage.sample(width: 500, height: 700, format: CVIPS_JPEG)
        let base64 = jpeg.base64EncodedString()
        var lines = ["BEGIN:VCARD", "VERSION:2.1", "UID:anna", "N:Berg;Anna;;;", "PHOTO;ENCODING=BASE64;JPEG:"]
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append("  " + rest.prefix(76))
            rest = rest.dropFirst(76)
        }
        lines += ["", "END:VCARD", ""]
        #expect(try cli.run(db: db, ["import", directory.write("anna.vcf", lines.joined(separator: "\r\n"))]).exitCode == 0)
        let exported = try cli.run(db: db, ["export", "--format", "vcard", "--vcard-version", version])
        #expect(exported.stdout.contains(version == "4.0" ? "PHOTO:data:image/jpeg;base64," : "PHOTO;ENCODING=b;TYPE=JPEG:"))

        let again = directory.path("again.sqlite")
        #expect(try cli.run(db: again, ["init", "--no-seed"]).exitCode == 0)
        #expect(try cli.run(db: again, ["import", directory.write("out.vcf", exported.stdout)]).exitCode == 0)
        #expect(try cli.run(db: again, ["photo", "get", "anna"]).stdoutData == jpeg)

        // And through JSON.
        let json = try cli.run(db: again, ["export", "--format", "json"]).stdout
        #expect(json.contains(#""photo": {"mediaType": "image/jpeg", "data": "\#(base64)"}"#))
        let third = directory.path("third.sqlite")
        #expect(try cli.run(db: third, ["init", "--no-seed"]).exitCode == 0)
        #expect(try cli.run(db: third, ["import", directory.write("out.json", json)]).exitCode == 0)
        #expect(try cli.run(db: third, ["photo", "get", "anna"]).stdoutData == jpeg)
        #expect(try cli.run(db: third, ["query", "--has", "photo", "--format", "csv"]).stdout.contains(",true\r\n"))
    }
}
