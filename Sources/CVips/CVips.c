#include "CVips.h"

// VIPS_OBJECT() and the like become plain casts, so that the shim calls
// no GLib function but those resolved below.
#define G_DISABLE_CAST_CHECKS
#include <vips/vips.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// libvips is opened on the first photo, not linked: it brings about a
// hundred libraries (GLib, cairo, pango, HDF5, curl, …) whose loading and
// constructors cost every process some 30 ms, photo or not. The headers
// still give each function its type; the calls below go through these
// pointers, resolved from the library the headers describe.
#define CVIPS_FUNCTIONS(X) \
    X(vips_init) \
    X(vips_version) \
    X(vips_error) \
    X(vips_error_buffer) \
    X(vips_error_clear) \
    X(vips_cache_set_max) \
    X(vips_cache_set_max_mem) \
    X(vips_cache_set_max_files) \
    X(vips_concurrency_set) \
    X(vips_foreign_find_load_buffer) \
    X(vips_image_new_from_buffer) \
    X(vips_image_get_width) \
    X(vips_image_get_height) \
    X(vips_image_get_bands) \
    X(vips_image_get_format) \
    X(vips_image_get_orientation_swap) \
    X(vips_image_get_typeof) \
    X(vips_image_get_string) \
    X(vips_image_hasalpha) \
    X(vips_extract_band) \
    X(vips_min) \
    X(vips_jpegsave_buffer) \
    X(vips_webpsave_buffer) \
    X(vips_pngsave_buffer) \
    X(vips_gifsave_buffer) \
    X(vips_heifsave_buffer) \
    X(vips_thumbnail_buffer) \
    X(vips_image_copy_memory) \
    X(vips_image_new) \
    X(vips_object_local_array) \
    X(vips_xyz) \
    X(vips_linear) \
    X(vips_bandjoin_const1) \
    X(vips_bandjoin2) \
    X(vips_copy) \
    X(vips_image_set_int) \
    X(g_object_ref) \
    X(g_object_unref) \
    X(g_free) \
    X(g_log_set_handler)
#define CVIPS_POINTER(name) static __typeof__(name) *cvips_##name;
CVIPS_FUNCTIONS(CVIPS_POINTER)
#define vips_init (*cvips_vips_init)
#define vips_version (*cvips_vips_version)
#define vips_error (*cvips_vips_error)
#define vips_error_buffer (*cvips_vips_error_buffer)
#define vips_error_clear (*cvips_vips_error_clear)
#define vips_cache_set_max (*cvips_vips_cache_set_max)
#define vips_cache_set_max_mem (*cvips_vips_cache_set_max_mem)
#define vips_cache_set_max_files (*cvips_vips_cache_set_max_files)
#define vips_concurrency_set (*cvips_vips_concurrency_set)
#define vips_foreign_find_load_buffer (*cvips_vips_foreign_find_load_buffer)
#define vips_image_new_from_buffer (*cvips_vips_image_new_from_buffer)
#define vips_image_get_width (*cvips_vips_image_get_width)
#define vips_image_get_height (*cvips_vips_image_get_height)
#define vips_image_get_bands (*cvips_vips_image_get_bands)
#define vips_image_get_format (*cvips_vips_image_get_format)
#define vips_image_get_orientation_swap (*cvips_vips_image_get_orientation_swap)
#define vips_image_get_typeof (*cvips_vips_image_get_typeof)
#define vips_image_get_string (*cvips_vips_image_get_string)
#define vips_image_hasalpha (*cvips_vips_image_hasalpha)
#define vips_extract_band (*cvips_vips_extract_band)
#define vips_min (*cvips_vips_min)
#define vips_jpegsave_buffer (*cvips_vips_jpegsave_buffer)
#define vips_webpsave_buffer (*cvips_vips_webpsave_buffer)
#define vips_pngsave_buffer (*cvips_vips_pngsave_buffer)
#define vips_gifsave_buffer (*cvips_vips_gifsave_buffer)
#define vips_heifsave_buffer (*cvips_vips_heifsave_buffer)
#define vips_thumbnail_buffer (*cvips_vips_thumbnail_buffer)
#define vips_image_copy_memory (*cvips_vips_image_copy_memory)
#define vips_image_new (*cvips_vips_image_new)
#define vips_object_local_array (*cvips_vips_object_local_array)
#define vips_xyz (*cvips_vips_xyz)
#define vips_linear (*cvips_vips_linear)
#define vips_bandjoin_const1 (*cvips_vips_bandjoin_const1)
#define vips_bandjoin2 (*cvips_vips_bandjoin2)
#define vips_copy (*cvips_vips_copy)
#define vips_image_set_int (*cvips_vips_image_set_int)
#undef g_object_ref  // GLib's macro form, which calls the function by name
#define g_object_ref (*cvips_g_object_ref)
#define g_object_unref (*cvips_g_object_unref)
#define g_free (*cvips_g_free)
#define g_log_set_handler (*cvips_g_log_set_handler)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int ready;
static char failure[160] = "libvips cannot start";

/// Opens the libvips whose ABI the headers describe and resolves every
/// function the shim calls; 0 when it or one of them is missing.
static int load(void) {
    char soname[32];
    snprintf(soname, sizeof soname, "libvips.so.%d", VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE);
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(failure, sizeof failure, "libvips cannot be loaded (%s)", dlerror());
        return 0;
    }
#define CVIPS_RESOLVE(name) \
    if ((cvips_##name = (__typeof__(cvips_##name))dlsym(library, #name)) == NULL) { \
        snprintf(failure, sizeof failure, "%s lacks %s", soname, #name); \
        return 0; \
    }
    CVIPS_FUNCTIONS(CVIPS_RESOLVE)
    return 1;
}

/// libvips' warnings on stderr would come between a command's output and
/// its one-sentence errors; the failures that matter come back as errors.
static void discard(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain, (void)level, (void)message, (void)data;
}

static void start(void) {
    if (!load()) return;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, discard, NULL);
    // VIPS_INIT's own ABI check, without its GLib warnings.
    if (vips_version(3) - vips_version(5) != VIPS_LIBRARY_CURRENT - VIPS_LIBRARY_AGE) return;
    if (vips_init("contactsdb") != 0) return;
    // Each photo is read once: a cache would only hold memory, and one
    // worker thread keeps a decode's buffers to one set.
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    vips_concurrency_set(1);
    ready = 1;
}

/// Moves libvips' (process-wide) error text into `error`, first line only.
static void take_error(char *error, size_t capacity) {
    if (capacity > 0) {
        const char *text = vips_error_buffer();
        size_t length = strcspn(text, "\n");
        if (length >= capacity) length = capacity - 1;
        memcpy(error, text, length);
        error[length] = 0;
        if (length == 0) snprintf(error, capacity, "libvips gave no reason");
    }
    vips_error_clear();
}

static int started(char *error, size_t capacity) {
    pthread_once(&once, start);
    if (!ready && capacity > 0) snprintf(error, capacity, "%s", failure);
    return ready;
}

/// How damaged data may be before loading fails, as a loader option. Any
/// less and a truncated or corrupt file comes out with grey where its data
/// stopped. libjpeg reports a scan that ends early only as a warning, so
/// JPEG fails on warnings; libpng warns about harmless metadata (an
/// outdated sRGB profile), so the others fail on errors, truncation
/// included.
static const char *fail_on(const void *data, size_t length) {
    const char *loader = vips_foreign_find_load_buffer(data, length);
    if (loader == NULL) vips_error_clear();
    return loader != NULL && strcmp(loader, "VipsForeignLoadJpegBuffer") == 0 ? "fail_on=warning" : "fail_on=error";
}

const char *cvips_find_loader(const void *data, size_t length) {
    if (!started(NULL, 0)) return NULL;
    const char *name = vips_foreign_find_load_buffer(data, length);
    if (name == NULL) vips_error_clear();
    return name;
}

int32_t cvips_read_header(const void *data, size_t length, cvips_header *header, char *error, size_t capacity) {
    memset(header, 0, sizeof *header);
    if (!started(error, capacity)) return 0;
    // Loaders are lazy: this reads the header and decodes no pixel.
    VipsImage *image = vips_image_new_from_buffer(data, length, fail_on(data, length), "access",
                                                  VIPS_ACCESS_SEQUENTIAL, NULL);
    if (image == NULL) {
        take_error(error, capacity);
        return 0;
    }
    header->width = vips_image_get_width(image);
    header->height = vips_image_get_height(image);
    header->turned = vips_image_get_orientation_swap(image) ? 1 : 0;
    const char *compression = NULL;
    if (vips_image_get_typeof(image, "heif-compression") != 0
        && vips_image_get_string(image, "heif-compression", &compression) == 0 && compression != NULL) {
        snprintf(header->compression, sizeof header->compression, "%s", compression);
    }
    g_object_unref(image);
    return 1;
}

/// 1 when `image` has an alpha band with any pixel below full opacity.
static int shows_through(VipsImage *image) {
    if (!vips_image_hasalpha(image)) return 0;
    VipsImage *alpha = NULL;
    double least = 0;
    if (vips_extract_band(image, &alpha, vips_image_get_bands(image) - 1, NULL) != 0) {
        vips_error_clear();
        return 1;
    }
    int failed = vips_min(alpha, &least, NULL);
    g_object_unref(alpha);
    if (failed) {
        vips_error_clear();
        return 1;
    }
    double opaque = vips_image_get_format(image) == VIPS_FORMAT_USHORT ? 65535 : 255;
    return least < opaque;
}

static int save(VipsImage *image, cvips_format format, int32_t quality, int strip, cvips_output *output) {
    output->format = format;
    output->width = vips_image_get_width(image);
    output->height = vips_image_get_height(image);
    switch (format) {
    case CVIPS_JPEG:
        return vips_jpegsave_buffer(image, &output->bytes, &output->length, "Q", quality, "optimize_coding", TRUE,
                                    "strip", strip, NULL);
    case CVIPS_WEBP:
        return vips_webpsave_buffer(image, &output->bytes, &output->length, "Q", quality, "strip", strip, NULL);
    case CVIPS_PNG:
        return vips_pngsave_buffer(image, &output->bytes, &output->length, "strip", strip, NULL);
    case CVIPS_GIF:
        return vips_gifsave_buffer(image, &output->bytes, &output->length, "strip", strip, NULL);
    case CVIPS_HEIC:
        return vips_heifsave_buffer(image, &output->bytes, &output->length, "Q", quality, "compression",
                                    VIPS_FOREIGN_HEIF_COMPRESSION_HEVC, "strip", strip, NULL);
    case CVIPS_AVIF:
        return vips_heifsave_buffer(image, &output->bytes, &output->length, "Q", quality, "compression",
                                    VIPS_FOREIGN_HEIF_COMPRESSION_AV1, "strip", strip, NULL);
    }
    vips_error("cvips", "unknown output format %d", (int)format);
    return -1;
}

int32_t cvips_thumbnail(const void *data, size_t length, int32_t side, int32_t quality, cvips_output *output,
                        char *error, size_t capacity) {
    memset(output, 0, sizeof *output);
    if (!started(error, capacity)) return 0;
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail_buffer((void *)data, length, &thumbnail, side, "height", side, "size", VIPS_SIZE_DOWN, "crop",
                              VIPS_INTERESTING_CENTRE, "option_string", fail_on(data, length), NULL) != 0) {
        take_error(error, capacity);
        return 0;
    }
    // The one decode happens here, into a thumbnail-sized buffer; the
    // alpha check and the encoder then read memory, not the file again.
    VipsImage *pixels = vips_image_copy_memory(thumbnail);
    g_object_unref(thumbnail);
    if (pixels == NULL) {
        take_error(error, capacity);
        return 0;
    }
    int failed;
    if (shows_through(pixels)) {
        failed = save(pixels, CVIPS_WEBP, quality, TRUE, output);
    } else {
        VipsImage *opaque = pixels;
        if (vips_image_hasalpha(pixels)) {
            failed = vips_extract_band(pixels, &opaque, 0, "n", vips_image_get_bands(pixels) - 1, NULL);
        } else {
            g_object_ref(pixels);
            failed = 0;
        }
        if (!failed) {
            failed = save(opaque, CVIPS_JPEG, quality, TRUE, output);
            g_object_unref(opaque);
        }
    }
    g_object_unref(pixels);
    if (failed) {
        take_error(error, capacity);
        memset(output, 0, sizeof *output);
        return 0;
    }
    return 1;
}

int32_t cvips_encode_sample(int32_t width, int32_t height, int32_t bands, cvips_format format, int32_t orientation,
                            cvips_output *output, char *error, size_t capacity) {
    memset(output, 0, sizeof *output);
    if (!started(error, capacity)) return 0;
    VipsObject *scope = VIPS_OBJECT(vips_image_new());
    VipsImage **steps = (VipsImage **)vips_object_local_array(scope, 6);
    double scale[2] = {255.0 / width, 255.0 / height};
    double offset[2] = {0, 0};
    int failed = vips_xyz(&steps[0], width, height, NULL)
        || vips_linear(steps[0], &steps[1], scale, offset, 2, "uchar", TRUE, NULL)
        || vips_bandjoin_const1(steps[1], &steps[2], 128, NULL);
    if (!failed && bands == 4) {
        // The x gradient again as alpha: transparent at the left edge.
        failed = vips_extract_band(steps[1], &steps[3], 0, NULL)
            || vips_bandjoin2(steps[2], steps[3], &steps[4], NULL);
    } else if (!failed) {
        failed = vips_copy(steps[2], &steps[4], NULL);
    }
    if (!failed) failed = vips_copy(steps[4], &steps[5], "interpretation", VIPS_INTERPRETATION_sRGB, NULL);
    if (!failed && orientation != 0) vips_image_set_int(steps[5], VIPS_META_ORIENTATION, orientation);
    if (!failed) failed = save(steps[5], format, 90, FALSE, output);
    g_object_unref(scope);
    if (failed) {
        take_error(error, capacity);
        memset(output, 0, sizeof *output);
        return 0;
    }
    output->width = width;
    output->height = height;
    return 1;
}

void cvips_free(void *bytes) {
    g_free(bytes);
}
