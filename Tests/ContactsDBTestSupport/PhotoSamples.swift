import CVips
import Foundation

/// Real images encoded by libvips, for the tests of photos.
public enum PhotoSamples {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A `width`×`height` gradient encoded as `format`; `bands` 4 gives it
    /// an alpha that is transparent at the left edge.
    public static func image(
        _ width: Int, _ height: Int, _ format: cvips_format, bands: Int = 3, orientation: Int = 0
    ) throws -> Data {
        var output = cvips_output()
        var error = [CChar](repeating: 0, count: 256)
        guard cvips_encode_sample(Int32(width), Int32(height), Int32(bands), format, Int32(orientation), &output, &error, error.count) == 1
        else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Failure(description: "cannot encode a sample: \(reason)")
        }
        defer { cvips_free(output.bytes) }
        return Data(bytes: output.bytes, count: output.length)
    }
}
