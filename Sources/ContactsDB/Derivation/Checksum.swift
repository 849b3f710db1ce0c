import CGLib

/// SHA-256, by GLib (linked for libvips already), so that the core links
/// no TLS library for one hash.
package enum Checksum {
    /// Lower-case hex, 64 digits.
    package static func sha256(_ bytes: UnsafeRawBufferPointer) -> String {
        let digest = g_compute_checksum_for_data(G_CHECKSUM_SHA256, bytes.baseAddress?.assumingMemoryBound(to: guchar.self), gsize(bytes.count))!
        defer { g_free(digest) }
        return String(cString: digest)
    }

    package static func sha256(_ bytes: some Sequence<UInt8>) -> String {
        Array(bytes).withUnsafeBytes(sha256)
    }
}
