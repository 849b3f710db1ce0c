#ifndef CPHONENUMBER_H
#define CPHONENUMBER_H

// A small C face on Google's libphonenumber (Debian's libphonenumber-dev),
// whose API is C++ only: parsing, validity, the E.164, national and
// international forms, and the as-you-type formatter. Text is UTF-8.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What libphonenumber makes of a number. Empty strings where it has none.
typedef struct {
    char e164[40];
    char national[96];
    char international[96];
    /// The region the number belongs to ("RU"), or "" when none is known.
    char region[8];
    /// libphonenumber's PhoneNumberType, as its enumeration numbers it.
    int32_t type;
    /// Whether the number matches a valid pattern of its region.
    int32_t isValid;
} cpn_number;

/// Parses `text` as written in `region` (a region code such as "RU"; "ZZ"
/// for a number written with "+"). Returns 1 and fills `number` when it
/// parses, else 0. Without `classify`, `type` and `isValid` are left 0:
/// they cost most of the time, and display needs neither.
int32_t cpn_parse(const char *text, const char *region, int32_t classify, cpn_number *number);

/// Which display form ``cpn_e164`` writes besides the E.164 one.
typedef struct {
    /// Default regions, as ``cpn_display`` takes them.
    const char *regions;
    /// 1 to format a number that is not valid too.
    int32_t forInvalid;
    /// A country calling code whose numbers the caller shows its own way
    /// (0: none); nothing is written for them.
    int32_t exceptCountry;
    char *shown;
    int32_t capacity;
} cpn_display_request;

/// The lean path of storing and searching numbers: parses `text` as
/// written in `region` and writes its E.164 form into `e164` (`capacity`
/// bytes) and, when `request` asks for it, the form ``cpn_display`` gives
/// it into `request->shown`. Returns 0 when it does not parse (nothing
/// written); else, when `checking`, 1 for a valid number and 2 for one
/// that is not, and 1 without checking (which spares finding its region).
/// A number of digits, spaces, dashes, dots and brackets is parsed without
/// its separators, which reads alike and takes half the time; ``cpn_parse``
/// reads every text as written.
int32_t cpn_e164(const char *text, const char *region, int32_t checking, char *e164, int32_t capacity,
                 const cpn_display_request *request);

/// Writes the E.164 number `e164` in its NATIONAL form when its region is
/// one of `regions` (codes separated by commas, "RU,KR"), else in its
/// INTERNATIONAL form. Returns 1, or 0 when it does not parse (nothing
/// written).
int32_t cpn_display(const char *e164, const char *regions, char *shown, int32_t capacity);

/// 1 when libphonenumber knows the region code ("US", "GB"), else 0.
int32_t cpn_is_supported_region(const char *region);

/// The name of a PhoneNumberType value ("MOBILE", "FIXED_LINE", …).
const char *cpn_type_name(int32_t type);

/// An as-you-type formatter for `region`; free it with cpn_formatter_free.
void *cpn_formatter_new(const char *region);
void cpn_formatter_free(void *formatter);
void cpn_formatter_clear(void *formatter);
/// Feeds one character (a Unicode scalar) and writes what the field shows
/// now into `shown`.
void cpn_formatter_input(void *formatter, uint32_t character, char *shown, int32_t capacity);

#ifdef __cplusplus
}
#endif

#endif
