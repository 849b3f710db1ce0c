#include "CICU.h"

#include <unicode/alphaindex.h>
#include <unicode/coll.h>
#include <unicode/locid.h>
#include <unicode/translit.h>
#include <unicode/uversion.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <map>
#include <string>

using icu::AlphabeticIndex;
using icu::Collator;
using icu::Locale;
using icu::Transliterator;
using icu::UnicodeString;

namespace {

// Built once, then used read-only: Collator's const methods and
// ImmutableIndex are thread-safe.
const Collator *collator() {
    static const Collator *instance = [] {
        UErrorCode status = U_ZERO_ERROR;
        Collator *made = Collator::createInstance(Locale::getRoot(), status);
        if (U_FAILURE(status)) return static_cast<Collator *>(nullptr);
        made->setStrength(Collator::PRIMARY);
        return made;
    }();
    return instance;
}

const AlphabeticIndex::ImmutableIndex *alphabeticIndex() {
    static const AlphabeticIndex::ImmutableIndex *instance = [] {
        UErrorCode status = U_ZERO_ERROR;
        AlphabeticIndex index(Locale::getEnglish(), status);
        index.setMaxLabelCount(500, status);
        index.addLabels(Locale("el"), status);
        index.addLabels(Locale("ru"), status);
        index.addLabels(Locale("ko"), status);
        AlphabeticIndex::ImmutableIndex *built = index.buildImmutableIndex(status);
        return U_SUCCESS(status) ? built : nullptr;
    }();
    return instance;
}

UnicodeString makeString(const uint16_t *text, int32_t length) {
    return UnicodeString(reinterpret_cast<const char16_t *>(text), length);
}

}  // namespace

int32_t cicu_sort_key(const uint16_t *text, int32_t length, uint8_t *key, int32_t capacity) {
    const Collator *c = collator();
    if (c == nullptr) return -1;
    int32_t size = c->getSortKey(reinterpret_cast<const char16_t *>(text), length, key, capacity);
    return size > 0 ? size - 1 : -1;
}

int32_t cicu_compare(const uint16_t *a, int32_t aLength, const uint16_t *b, int32_t bLength) {
    const Collator *c = collator();
    if (c == nullptr) return 0;
    UErrorCode status = U_ZERO_ERROR;
    return c->compare(reinterpret_cast<const char16_t *>(a), aLength,
                      reinterpret_cast<const char16_t *>(b), bLength, status);
}

void cicu_collation_version(char *buffer, int32_t capacity) {
    UVersionInfo icu, collation;
    u_getVersion(icu);
    const Collator *c = collator();
    if (c != nullptr) c->getVersion(collation);
    char icuText[U_MAX_VERSION_STRING_LENGTH], collationText[U_MAX_VERSION_STRING_LENGTH];
    u_versionToString(icu, icuText);
    u_versionToString(collation, collationText);
    snprintf(buffer, capacity, "%s/%s", icuText, c != nullptr ? collationText : "none");
}

int32_t cicu_bucket_count(void) {
    const AlphabeticIndex::ImmutableIndex *index = alphabeticIndex();
    return index != nullptr ? index->getBucketCount() : 0;
}

int32_t cicu_bucket_of(const uint16_t *text, int32_t length) {
    const AlphabeticIndex::ImmutableIndex *index = alphabeticIndex();
    if (index == nullptr) return -1;
    UErrorCode status = U_ZERO_ERROR;
    int32_t bucket = index->getBucketIndex(makeString(text, length), status);
    return U_SUCCESS(status) ? bucket : -1;
}

int32_t cicu_bucket_label(int32_t bucket, char *label, int32_t capacity) {
    const AlphabeticIndex::ImmutableIndex *index = alphabeticIndex();
    const AlphabeticIndex::Bucket *found = index != nullptr ? index->getBucket(bucket) : nullptr;
    if (found == nullptr) {
        if (capacity > 0) label[0] = 0;
        return 0;
    }
    std::string utf8;
    found->getLabel().toUTF8String(utf8);
    snprintf(label, capacity, "%s", utf8.c_str());
    return found->getLabelType() == U_ALPHAINDEX_NORMAL;
}

int32_t cicu_transliterate(const char *id, const uint16_t *text, int32_t length, uint16_t *result, int32_t capacity) {
    // Built on a thread's first use of an id (building Any-Latin takes
    // milliseconds), then kept for the thread's life.
    thread_local std::map<std::string, std::unique_ptr<Transliterator>> byId;
    auto found = byId.find(id);
    if (found == byId.end()) {
        UErrorCode status = U_ZERO_ERROR;
        std::unique_ptr<Transliterator> made(
            Transliterator::createInstance(UnicodeString(id, -1, US_INV), UTRANS_FORWARD, status));
        if (U_FAILURE(status)) made.reset();
        found = byId.emplace(id, std::move(made)).first;
    }
    if (!found->second) return -1;
    UnicodeString string = makeString(text, length);
    found->second->transliterate(string);
    UErrorCode status = U_ZERO_ERROR;
    int32_t size = string.extract(reinterpret_cast<char16_t *>(result), capacity, status);
    return status == U_BUFFER_OVERFLOW_ERROR || U_SUCCESS(status) ? size : -1;
}
