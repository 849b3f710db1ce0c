import CVips
import Foundation
import Testing
@testable import ContactsDB
@testable import ContactsDBSynthetic

/// Photos made here by libvips in each format a photo may have, and the
/// hostile bytes a photo may be instead. Serialized, so that the peak
/// memory measured is one photo's.
@Suite(.serialized) struct PhotoImageTests {
    /// ``PhotoImage/sample(width:height:format:bands:orientation:)``, by a shorter name.
    static func sample(_ width: Int, _ height: Int, _ format: cvips_format, bands: Int = 3, orientation: Int = 0) throws -> Data {
        try PhotoImage.sample(width: width, height: height, format: format, bands: bands, orientation: orientation)
    }

    static func problem(_ data: Data) -> ContactsDBError.PhotoProblem? {
        guard case let .invalidPhoto(problem)? = captureError({ _ = try PhotoImage(data) }) else { return nil }
        return problem
    }

    static let formats: [(cvips_format, String)] = [
        (CVIPS_JPEG, "image/jpeg"), (CVIPS_PNG, "image/png"), (CVIPS_GIF, "image/gif"),
        (CVIPS_WEBP, "image/webp"), (CVIPS_HEIC, "image/heic"),
    ]

    @Test(arguments: formats) func eachFormatGivesItsTypeSizeAndASquareThumbnail(format: cvips_format, mediaType: String) throws {
        let data = try Self.sample(640, 480, format)
        let photo = try PhotoImage(data)
        #expect(photo.mediaType == mediaType)
        #expect(PhotoImage.mediaType(of: data) == mediaType)
        #expect((photo.width, photo.height) == (640, 480))
        #expect(photo.thumbnail.mediaType == "image/jpeg")
        #expect(photo.thumbnail.side == 256)
        // The thumbnail is itself a photo of that size.
        let thumbnail = try PhotoImage(photo.thumbnail.data)
        #expect((thumbnail.mediaType, thumbnail.width, thumbnail.height) == ("image/jpeg", 256, 256))
        #expect(photo.thumbnail.data.count < 30_000)
    }

    @Test func aTallPhotoIsCroppedSquare() throws {
        let photo = try PhotoImage(Self.sample(300, 1200, CVIPS_JPEG))
        #expect((photo.width, photo.height, photo.thumbnail.side) == (300, 1200, 256))
        let thumbnail = try PhotoImage(photo.thumbnail.data)
        #expect((thumbnail.width, thumbnail.height) == (256, 256))
    }

    @Test func aSmallPhotoIsNotEnlarged() throws {
        let photo = try PhotoImage(Self.sample(100, 60, CVIPS_PNG))
        #expect(photo.thumbnail.side == 60)
        let thumbnail = try PhotoImage(photo.thumbnail.data)
        #expect((thumbnail.width, thumbnail.height) == (60, 60))
    }

    @Test func transparencyKeepsAlphaAndOpaqueAlphaIsDropped() throws {
        let transparent = try PhotoImage(Self.sample(400, 400, CVIPS_PNG, bands: 4))
        #expect(transparent.thumbnail.mediaType == "image/webp")
        #expect(try PhotoImage(transparent.thumbnail.data).thumbnail.mediaType == "image/webp")
        // libnsgif reads every GIF with an alpha band, here all opaque.
        #expect(try PhotoImage(Self.sample(400, 400, CVIPS_GIF)).thumbnail.mediaType == "image/jpeg")
    }

    @Test func aPhotoTurnedByItsOrientationIsMeasuredUpright() throws {
        let photo = try PhotoImage(Self.sample(400, 200, CVIPS_JPEG, orientation: 6))
        #expect((photo.width, photo.height, photo.thumbnail.side) == (200, 400, 200))
    }

    @Test func bytesThatAreNoImageAreRefused() throws {
        for bytes in [Data(), Data("BEGIN:VCARD\r\nEND:VCARD\r\n".utf8), Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })] {
            #expect(Self.problem(bytes) == .notAnImage)
            #expect(PhotoImage.mediaType(of: bytes) == nil)
        }
    }

    @Test func otherTypesAreRefusedByName() throws {
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="20000"><rect width="9" height="9"/></svg>"#.utf8)
        #expect(Self.problem(svg) == .unsupportedType("SVG"))
        let pdf = Data("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)
        #expect(Self.problem(pdf) == .unsupportedType("PDF"))
        // HEIF's container with AV1 inside: AVIF, which photos are not.
        let avif = try Self.sample(64, 64, CVIPS_AVIF)
        #expect(Self.problem(avif) == .unsupportedType("AVIF"))
        #expect(PhotoImage.mediaType(of: avif) == nil)
    }

    @Test(arguments: [CVIPS_JPEG, CVIPS_PNG, CVIPS_WEBP]) func truncatedDataIsRefused(format: cvips_format) throws {
        let whole = try Self.sample(640, 480, format)
        let truncated = whole.prefix(whole.count / 2)
        guard case let .undecodable(name, reason)? = Self.problem(truncated) else {
            Issue.record("a truncated image was taken")
            return
        }
        #expect(!name.isEmpty && !reason.isEmpty)
        // An import keeps it by its type all the same.
        #expect(PhotoImage.mediaType(of: truncated) == PhotoImage.mediaType(of: whole))
    }

    @Test func corruptDataIsRefused() throws {
        var png = try Self.sample(640, 480, CVIPS_PNG)
        // Bytes inside the image data, whose checksums then fail.
        for offset in stride(from: png.count / 2, to: png.count / 2 + 64, by: 8) { png[offset] ^= 0x5A }
        guard case .undecodable? = Self.problem(png) else {
            Issue.record("a corrupt image was taken")
            return
        }
    }

    @Test func moreThanTenMegabytesIsRefusedUnread() throws {
        var big = try Self.sample(64, 64, CVIPS_JPEG)
        big.append(Data(count: PhotoImage.maximumBytes + 1 - big.count))
        #expect(Self.problem(big) == .tooLarge(bytes: PhotoImage.maximumBytes + 1, limit: PhotoImage.maximumBytes))
    }

    // MARK: Decompression bombs: small files declaring 20000×20000 pixels

    /// A PNG whose header declares `width`×`height` over a small image's data.
    static func pngDeclaring(_ width: UInt32, _ height: UInt32) throws -> Data {
        var png = try sample(16, 16, CVIPS_PNG)
        // Signature (8), IHDR's length (4) and type (4), then width and height.
        let size = withUnsafeBytes(of: width.bigEndian, Array.init) + withUnsafeBytes(of: height.bigEndian, Array.init)
        png.replaceSubrange(16..<24, with: size)
        let checksum = crc32(png[12..<29])
        png.replaceSubrange(29..<33, with: withUnsafeBytes(of: checksum.bigEndian, Array.init))
        return png
    }

    /// A JPEG whose frame header declares `width`×`height` (at most 65535).
    static func jpegDeclaring(_ width: UInt16, _ height: UInt16) throws -> Data {
        var jpeg = try sample(16, 16, CVIPS_JPEG)
        let bytes = [UInt8](jpeg)
        // SOF0 to SOF2: marker, length (2), precision (1), height, width.
        let frame = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && (0xC0...0xC2).contains(bytes[$0 + 1]) })
        let size = withUnsafeBytes(of: height.bigEndian, Array.init) + withUnsafeBytes(of: width.bigEndian, Array.init)
        jpeg.replaceSubrange(frame + 5..<frame + 9, with: size)
        return jpeg
    }

    static func crc32(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test func aPNGBombIsRefusedFromItsHeader() throws {
        let bomb = try Self.pngDeclaring(20000, 20000)
        #expect(bomb.count < 1000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(Self.problem(bomb) == .tooManyPixels(width: 20000, height: 20000, limit: PhotoImage.maximumPixels))
        }
        // Decoding 400 megapixels takes seconds; the header, milliseconds.
        #expect(elapsed < .seconds(1))
    }

    @Test func aJPEGBombIsRefusedFromItsHeader() throws {
        let bomb = try Self.jpegDeclaring(20000, 20000)
        #expect(Self.problem(bomb) == .tooManyPixels(width: 20000, height: 20000, limit: PhotoImage.maximumPixels))
        // Just under the limit the same file is read, and fails on its data.
        guard case .undecodable? = Self.problem(try Self.jpegDeclaring(7000, 7000)) else {
            Issue.record("a JPEG declaring more pixels than it holds was taken")
            return
        }
    }

    #if os(Linux)
    /// The process's peak resident memory growth in bytes while `body`
    /// runs, or nil where the peak cannot be reset.
    static func peakGrowth(_ body: () throws -> Void) rethrows -> Int? {
        func peak() -> Int? {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                  let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
            else { return nil }
            return kilobytes * 1024
        }
        func resident() -> Int? {
            guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
                  let pages = Int(statm.split(separator: " ")[1]) else { return nil }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        }
        // "5" resets the peak to the current resident size.
        guard (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil,
              let before = resident() else { return nil }
        try body()
        return peak().map { $0 - before }
    }

    @Test func thumbnailingUsesBoundedMemory() throws {
        let bomb = try Self.pngDeclaring(20000, 20000)
        let photo = try Self.sample(6000, 4000, CVIPS_JPEG)
        _ = try PhotoImage(Self.sample(64, 64, CVIPS_JPEG))
        // Decoded whole, 20000×20000 would take 1.2 GB, and 6000×4000 72 MB;
        // JPEG's shrink on load decodes the latter at an eighth a side.
        let bombGrowth = try #require(Self.peakGrowth { _ = Self.problem(bomb) })
        #expect(bombGrowth < 100_000_000, "peak grew \(bombGrowth) bytes")
        let photoGrowth = try #require(try Self.peakGrowth { _ = try PhotoImage(photo) })
        #expect(photoGrowth < 36_000_000, "peak grew \(photoGrowth) bytes")
    }
    #endif

    @Test func mutatedPhotosAreTakenOrRefusedCleanly() throws {
        var random = SplitMix64(seed: 16)
        let samples = try [CVIPS_JPEG, CVIPS_PNG, CVIPS_GIF, CVIPS_WEBP].map { try [UInt8](Self.sample(96, 64, $0)) }
        for round in 0..<200 {
            let bytes = Data(HostileInputTests.mutate(samples[round % samples.count], &random))
            switch captureError({
                let photo = try PhotoImage(bytes)
                #expect((1...PhotoImage.thumbnailSide).contains(photo.thumbnail.side))
            }) {
            case nil, .invalidPhoto?: break
            case let other?: Issue.record("round \(round): \(other)")
            }
        }
    }
}
