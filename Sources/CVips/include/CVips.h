#ifndef CVIPS_H
#define CVIPS_H

// A small C face on libvips (Debian's libvips-dev) in plain C types, so
// that Swift sees neither GLib nor GObject. libvips starts on the first
// call, once, so that commands without photos never pay for it. Messages
// written into `error` are libvips' first line, cut to `capacity`.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The class name of the libvips loader that recognises `data` by its
/// first bytes ("VipsForeignLoadJpegBuffer"), or NULL when none does.
/// Nothing is decoded.
const char *cvips_find_loader(const void *data, size_t length);

typedef struct {
    /// The size as the file stores it, before any EXIF rotation.
    int32_t width;
    int32_t height;
    /// 1 when the EXIF orientation turns the image a quarter, so that it
    /// shows `height` wide.
    int32_t turned;
    /// HEIF's codec ("hevc", "av1"), or "" for other formats.
    char compression[16];
} cvips_header;

/// Reads the header of `data` and no pixels. Returns 1, or 0 with `error`.
int32_t cvips_read_header(const void *data, size_t length, cvips_header *header, char *error, size_t capacity);

/// What cvips_thumbnail wrote (JPEG or WebP), or cvips_encode_sample is to.
typedef enum { CVIPS_JPEG = 0, CVIPS_WEBP = 1, CVIPS_PNG = 2, CVIPS_GIF = 3, CVIPS_HEIC = 4, CVIPS_AVIF = 5 } cvips_format;

typedef struct {
    void *bytes;
    size_t length;
    int32_t width;
    int32_t height;
    cvips_format format;
} cvips_output;

/// A `side`×`side` thumbnail of `data`, upright, cropped around its centre
/// and never enlarged (`side` is at most the shorter side of the image).
/// JPEG at `quality` when the result is opaque, WebP at `quality` keeping
/// the alpha when any pixel shows through. Decoding shrinks on load where
/// the format allows, and truncated or corrupt data fails rather than
/// coming out grey. Returns 1 (free `output->bytes` with cvips_free), or 0
/// with `error`.
int32_t cvips_thumbnail(const void *data, size_t length, int32_t side, int32_t quality, cvips_output *output,
                        char *error, size_t capacity);

/// Encodes a `width`×`height` image of a diagonal gradient with `bands`
/// bands (3: RGB, 4: RGBA with a transparent half) in `format`, with the
/// EXIF `orientation` when it is not 0 (JPEG only): images for the tests,
/// made by the same library that reads them.
int32_t cvips_encode_sample(int32_t width, int32_t height, int32_t bands, cvips_format format, int32_t orientation,
                            cvips_output *output, char *error, size_t capacity);

void cvips_free(void *bytes);

#ifdef __cplusplus
}
#endif

#endif
