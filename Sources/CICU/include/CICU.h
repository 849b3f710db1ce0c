#ifndef CICU_H
#define CICU_H

// A small C face on the parts of ICU (Debian's libicu-dev) that contactsdb
// uses: the root collator at primary strength, an alphabetic index, and
// transliteration.
// Strings are UTF-16; results are written into caller-provided buffers.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Writes the primary-strength sort key of `text` into `key` and returns its
/// length (without the trailing zero). When the length exceeds `capacity`,
/// call again with a larger buffer. Returns -1 when ICU fails.
int32_t cicu_sort_key(const uint16_t *text, int32_t length, uint8_t *key, int32_t capacity);

/// <0, 0 or >0 as `a` sorts before, with or after `b` under the same collator.
int32_t cicu_compare(const uint16_t *a, int32_t aLength, const uint16_t *b, int32_t bLength);

/// The ICU version and the collator's version ("72.1/153.112.40.0").
void cicu_collation_version(char *buffer, int32_t capacity);

/// The number of buckets of the alphabetic index (English with Greek,
/// Russian and Korean labels added), including underflow, inflow and
/// overflow buckets.
int32_t cicu_bucket_count(void);

/// The bucket `text` files under.
int32_t cicu_bucket_of(const uint16_t *text, int32_t length);

/// A bucket's label as UTF-8 into `label`; returns whether it is a normal
/// (letter) bucket rather than underflow, inflow or overflow.
int32_t cicu_bucket_label(int32_t bucket, char *label, int32_t capacity);

/// Transliterates `text` by the ICU transform `id` (for example
/// "Any-Latin; Latin-ASCII") into `result` and returns the result's length
/// in UTF-16 units. When it exceeds `capacity`, call again with a larger
/// buffer. Returns -1 when ICU has no such transform. Each thread builds
/// its own transliterator per id, once (ICU's are not shared safely).
int32_t cicu_transliterate(const char *id, const uint16_t *text, int32_t length, uint16_t *result, int32_t capacity);

#ifdef __cplusplus
}
#endif

#endif
