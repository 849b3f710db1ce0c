import CVips
import Foundation

/// What the engine takes from a contact photo's bytes (docs/cli.md,
/// "Photos"): its type, its size and a square thumbnail for lists, all by
/// libvips.
///
/// The bytes are hostile until proven otherwise, so nothing is decoded
/// unbounded: the size is checked first, then the format by its first bytes
/// (JPEG, PNG, GIF, HEIC and WebP only: SVG, PDF and the rest bring parsers
/// a photo does not need), then the pixel count from the header alone, and
/// only then are pixels decoded, shrunk on load where the format allows.
public struct PhotoImage: Hashable, Sendable {
    /// 10 MB as most systems show sizes (MiB), so that a file shown as
    /// "10 MB" is taken.
    public static let maximumBytes = 10 * 1024 * 1024
    /// 50 megapixels (docs/cli.md, "Photos"): more than phones save by default.
    /// Formats without shrink on load (HEIC, GIF) decode whole, at up to a few
    /// hundred megabytes for a photo this large.
    public static let maximumPixels = 50_000_000
    /// A list shows photos at 40 to 80 points; 256 pixels stays sharp at
    /// 3× and keeps a page of 50 thumbnails under a megabyte.
    public static let thumbnailSide = 256
    /// JPEG and WebP quality of thumbnails: no visible loss at this size,
    /// and a photo's thumbnail stays within tens of kilobytes.
    public static let thumbnailQuality = 80

    /// The photo's type, found by its content: `image/jpeg`, `image/png`,
    /// `image/gif`, `image/heic` or `image/webp`.
    public var mediaType: String
    /// The size as the photo shows, upright after its EXIF orientation.
    public var width: Int
    /// The height as the photo shows, upright.
    public var height: Int
    /// The square thumbnail made from it.
    public var thumbnail: Thumbnail

    /// A square crop around the photo's centre, upright, at most
    /// `thumbnailSide` pixels a side and never enlarged: a smaller photo
    /// gives a thumbnail as wide as its shorter side. JPEG when opaque,
    /// WebP when any pixel shows through, so that a transparent logo stays
    /// transparent on any background.
    public struct Thumbnail: Hashable, Sendable {
        /// The encoded image.
        public var data: Data
        /// `image/jpeg` or `image/webp`.
        public var mediaType: String
        /// Its width and height in pixels.
        public var side: Int
    }

    /// Reads `data` as a photo and makes its thumbnail; throws
    /// `ContactsDBError.invalidPhoto` saying why it cannot.
    public init(_ data: Data) throws {
        let format = try Self.recognise(data)
        let header = try Self.readHeader(data, format)
        let pixels = Int(header.width) * Int(header.height)
        guard pixels <= Self.maximumPixels else {
            throw ContactsDBError.invalidPhoto(.tooManyPixels(
                width: Int(header.width), height: Int(header.height), limit: Self.maximumPixels))
        }
        let side = Int32(min(Self.thumbnailSide, Int(min(header.width, header.height))))
        var output = cvips_output()
        var error = [CChar](repeating: 0, count: 256)
        let made = data.withUnsafeBytes { bytes in
            Self.exclusively {
                cvips_thumbnail(bytes.baseAddress, bytes.count, side, Int32(Self.thumbnailQuality), &output, &error, error.count)
            }
        }
        guard made == 1 else {
            throw ContactsDBError.invalidPhoto(.undecodable(format: format.name, reason: String(nulTerminated: error)))
        }
        defer { cvips_free(output.bytes) }
        mediaType = format.mediaType
        width = Int(header.turned == 1 ? header.height : header.width)
        height = Int(header.turned == 1 ? header.width : header.height)
        thumbnail = Thumbnail(
            data: Data(bytes: output.bytes, count: output.length),
            mediaType: output.format == CVIPS_WEBP ? Format.webp.mediaType : Format.jpeg.mediaType,
            side: Int(output.width))
    }

    /// The type of a photo by its content, decoding no pixel: what an
    /// imported photo that cannot be read whole is kept as. Nil when the
    /// bytes are not of a type photos may have.
    public static func mediaType(of data: Data) -> String? {
        guard let format = try? recognise(data) else { return nil }
        do {
            _ = try readHeader(data, format)
        } catch ContactsDBError.invalidPhoto(.unsupportedType) {
            return nil
        } catch {}
        return format.mediaType
    }

    private enum Format: String {
        case jpeg, png, gif, heic, webp

        /// libvips' buffer loaders, by class name: the only ones let near
        /// a photo. (Debian's libvips reads GIF with libnsgif; others build
        /// it with giflib.)
        static let loaders: [String: Format] = [
            "VipsForeignLoadJpegBuffer": .jpeg,
            "VipsForeignLoadPngBuffer": .png,
            "VipsForeignLoadNsgifBuffer": .gif,
            "VipsForeignLoadGifBuffer": .gif,
            "VipsForeignLoadHeifBuffer": .heic,
            "VipsForeignLoadWebpBuffer": .webp,
        ]

        var mediaType: String { "image/\(rawValue)" }
        var name: String { self == .webp ? "WebP" : rawValue.uppercased() }
    }

    /// Names of the types libvips reads but photos may not have, for the
    /// message; any other is named by its loader ("TIFF").
    private static let refusedNames = ["Svg": "SVG", "Pdf": "PDF", "Jp2k": "JPEG 2000", "Jxl": "JPEG XL",
                                       "Magick": "a type only ImageMagick reads"]

    /// The checks before the header: the size, and the format by the
    /// first bytes.
    private static func recognise(_ data: Data) throws -> Format {
        guard data.count <= maximumBytes else {
            throw ContactsDBError.invalidPhoto(.tooLarge(bytes: data.count, limit: maximumBytes))
        }
        let found = data.withUnsafeBytes { bytes in
            bytes.baseAddress.flatMap { cvips_find_loader($0, bytes.count) }.map { String(cString: $0) }
        }
        guard let loader = found else { throw ContactsDBError.invalidPhoto(.notAnImage) }
        guard let format = Format.loaders[loader] else {
            let stem = String(loader.dropFirst("VipsForeignLoad".count).dropLast("Buffer".count))
            throw ContactsDBError.invalidPhoto(.unsupportedType(refusedNames[stem] ?? stem.uppercased()))
        }
        return format
    }

    /// The header of a recognised photo, and no pixel.
    private static func readHeader(_ data: Data, _ format: Format) throws -> cvips_header {
        var header = cvips_header()
        var error = [CChar](repeating: 0, count: 256)
        let read = data.withUnsafeBytes { bytes in
            exclusively { cvips_read_header(bytes.baseAddress, bytes.count, &header, &error, error.count) }
        }
        guard read == 1 else {
            throw ContactsDBError.invalidPhoto(.undecodable(format: format.name, reason: String(nulTerminated: error)))
        }
        // libheif reads AVIF too; photos are HEIC (HEVC) only.
        let compression = withUnsafeBytes(of: header.compression) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard format != .heic || compression == "hevc" else {
            throw ContactsDBError.invalidPhoto(.unsupportedType(compression == "av1" ? "AVIF" : "HEIF (\(compression))"))
        }
        return header
    }

    /// One decode at a time in the process. Imports derive contacts on two
    /// threads, and thumbnails made at once on several threads by Debian's
    /// libvips 8.14 end, now and then, in a crash where liborc frees an
    /// operation's compiled vector code (docs/performance.md, "Thumbnails
    /// on several threads"); serialized, they still come off the writer's
    /// thread.
    private static let decoding = NSLock()

    private static func exclusively<T>(_ body: () -> T) -> T {
        decoding.lock()
        defer { decoding.unlock() }
        return body()
    }
}

extension PhotoImage {
    /// A `width`×`height` gradient encoded as `format` by libvips: real
    /// photos for tests and synthetic data sets. `bands` 4 gives it an
    /// alpha that is transparent at the left edge; `orientation` is EXIF's.
    public static func sample(
        width: Int, height: Int, format: cvips_format, bands: Int = 3, orientation: Int = 0
    ) throws -> Data {
        var output = cvips_output()
        var error = [CChar](repeating: 0, count: 256)
        guard cvips_encode_sample(Int32(width), Int32(height), Int32(bands), format, Int32(orientation), &output, &error, error.count) == 1
        else {
            throw ContactsDBError.databaseFailure(reason: "cannot encode a sample: \(String(nulTerminated: error))")
        }
        defer { cvips_free(output.bytes) }
        return Data(bytes: output.bytes, count: output.length)
    }
}

extension ContactPhoto {
    /// A photo whose type is found by its content (`application/octet-stream`
    /// when the content is not of a type photos may have).
    public init(data: Data) {
        self.init(mediaType: PhotoImage.mediaType(of: data) ?? "application/octet-stream", data: data)
    }
}
