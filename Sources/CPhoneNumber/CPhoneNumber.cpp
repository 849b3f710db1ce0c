#include "CPhoneNumber.h"

#include <phonenumbers/asyoutypeformatter.h>
#include <phonenumbers/phonenumberutil.h>

#include <cstring>
#include <set>
#include <string>

using i18n::phonenumbers::AsYouTypeFormatter;
using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {

/// libphonenumber's one instance, found once: each GetInstance call takes
/// a few thousand instructions, 2% of what an import spends in the library.
const PhoneNumberUtil &phoneUtil() {
    static const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
    return util;
}

void copy(const std::string &text, char *buffer, size_t capacity) {
    if (capacity == 0) return;
    size_t length = text.size() < capacity - 1 ? text.size() : capacity - 1;
    std::memcpy(buffer, text.data(), length);
    buffer[length] = 0;
}

/// The region of a parsed number, looked up once and only when asked:
/// for a calling code many regions share (+1), finding it means trying
/// each region's patterns.
class Region {
  public:
    Region(const PhoneNumberUtil &util, const PhoneNumber &parsed) : util(util), parsed(parsed) {}

    const std::string &code() {
        if (!isKnown) util.GetRegionCodeForNumber(parsed, &found);
        isKnown = true;
        return found;
    }

  private:
    const PhoneNumberUtil &util;
    const PhoneNumber &parsed;
    std::string found;
    bool isKnown = false;
};

/// Writes `parsed` in its NATIONAL form when its region is one of
/// `regions` (codes separated by commas), else in its INTERNATIONAL form.
/// A number whose calling code no default region has is international
/// without its region being looked up.
void display(const PhoneNumberUtil &util, const PhoneNumber &parsed, Region &region, const char *regions,
             char *buffer, int32_t capacity) {
    bool isDefault = false;
    for (const char *start = regions; !isDefault && *start;) {
        const char *end = std::strchr(start, ',');
        size_t length = end ? static_cast<size_t>(end - start) : std::strlen(start);
        std::string candidate(start, length);
        isDefault = util.GetCountryCodeForRegion(candidate) == parsed.country_code() && region.code() == candidate;
        start += end ? length + 1 : length;
    }
    std::string formatted;
    util.Format(parsed, isDefault ? PhoneNumberUtil::NATIONAL : PhoneNumberUtil::INTERNATIONAL, &formatted);
    copy(formatted, buffer, capacity > 0 ? static_cast<size_t>(capacity) : 0);
}

/// Longest input libphonenumber parses; it refuses longer ones whole.
constexpr size_t maxInputLength = 250;

/// `text` without its separators, when it holds only digits, spaces,
/// dashes, dots and brackets after an optional leading "+": the
/// separators are what libphonenumber's own normalizing drops, but its
/// patterns (the extension's, the possible number's) run over every
/// character first, so the compact form parses in about half the time.
/// Anything else is parsed as written, and so is a text of fewer than
/// three digits: libphonenumber takes two digits alone but not with a
/// separator between them.
std::string compacted(const char *text) {
    std::string digits;
    size_t length = 0;
    for (const char *c = text; *c; ++c, ++length) {
        if (*c >= '0' && *c <= '9') {
            digits += *c;
        } else if (*c == '+' && c == text) {
            digits += *c;
        } else if (*c != ' ' && *c != '-' && *c != '.' && *c != '(' && *c != ')') {
            return text;
        }
    }
    size_t digitCount = digits.size() - (digits.empty() || digits[0] != '+' ? 0 : 1);
    return length <= maxInputLength && digitCount >= 3 ? digits : std::string(text);
}

}  // namespace

extern "C" int32_t cpn_parse(const char *text, const char *region, int32_t classify, cpn_number *number) {
    const PhoneNumberUtil &util = phoneUtil();
    PhoneNumber parsed;
    std::memset(number, 0, sizeof *number);
    if (util.Parse(text, region, &parsed) != PhoneNumberUtil::NO_PARSING_ERROR) return 0;
    std::string formatted;
    util.Format(parsed, PhoneNumberUtil::E164, &formatted);
    copy(formatted, number->e164, sizeof number->e164);
    util.Format(parsed, PhoneNumberUtil::NATIONAL, &formatted);
    copy(formatted, number->national, sizeof number->national);
    util.Format(parsed, PhoneNumberUtil::INTERNATIONAL, &formatted);
    copy(formatted, number->international, sizeof number->international);
    std::string code;
    util.GetRegionCodeForNumber(parsed, &code);
    copy(code == "ZZ" ? std::string() : code, number->region, sizeof number->region);
    if (classify) {
        number->type = util.GetNumberType(parsed);
        number->isValid = util.IsValidNumber(parsed) ? 1 : 0;
    }
    return 1;
}

extern "C" int32_t cpn_e164(const char *text, const char *region, int32_t checking, char *e164, int32_t capacity,
                            const cpn_display_request *request) {
    const PhoneNumberUtil &util = phoneUtil();
    PhoneNumber parsed;
    if (util.Parse(compacted(text), region, &parsed) != PhoneNumberUtil::NO_PARSING_ERROR) return 0;
    std::string formatted;
    util.Format(parsed, PhoneNumberUtil::E164, &formatted);
    copy(formatted, e164, capacity > 0 ? static_cast<size_t>(capacity) : 0);
    // IsValidNumber's own steps, so that the region found serves the display.
    Region found(util, parsed);
    bool isValid = !checking || util.IsValidNumberForRegion(parsed, found.code());
    // Formatting costs about as much as parsing: only the forms kept.
    if (request != nullptr && (isValid || request->forInvalid) && parsed.country_code() != request->exceptCountry) {
        display(util, parsed, found, request->regions, request->shown, request->capacity);
    }
    return isValid ? 1 : 2;
}

extern "C" int32_t cpn_display(const char *e164, const char *regions, char *shown, int32_t capacity) {
    const PhoneNumberUtil &util = phoneUtil();
    PhoneNumber parsed;
    if (util.Parse(e164, "ZZ", &parsed) != PhoneNumberUtil::NO_PARSING_ERROR) return 0;
    Region found(util, parsed);
    ::display(util, parsed, found, regions, shown, capacity);
    return 1;
}

extern "C" int32_t cpn_is_supported_region(const char *region) {
    // Built once: every query that reads a phone or a text checks the
    // stored default regions.
    static const std::set<std::string> regions = [] {
        std::set<std::string> all;
        phoneUtil().GetSupportedRegions(&all);
        return all;
    }();
    return regions.count(region) ? 1 : 0;
}

extern "C" const char *cpn_type_name(int32_t type) {
    switch (type) {
    case PhoneNumberUtil::FIXED_LINE: return "FIXED_LINE";
    case PhoneNumberUtil::MOBILE: return "MOBILE";
    case PhoneNumberUtil::FIXED_LINE_OR_MOBILE: return "FIXED_LINE_OR_MOBILE";
    case PhoneNumberUtil::TOLL_FREE: return "TOLL_FREE";
    case PhoneNumberUtil::PREMIUM_RATE: return "PREMIUM_RATE";
    case PhoneNumberUtil::SHARED_COST: return "SHARED_COST";
    case PhoneNumberUtil::VOIP: return "VOIP";
    case PhoneNumberUtil::PERSONAL_NUMBER: return "PERSONAL_NUMBER";
    case PhoneNumberUtil::PAGER: return "PAGER";
    case PhoneNumberUtil::UAN: return "UAN";
    case PhoneNumberUtil::VOICEMAIL: return "VOICEMAIL";
    default: return "UNKNOWN";
    }
}

extern "C" void *cpn_formatter_new(const char *region) {
    return phoneUtil().GetAsYouTypeFormatter(region);
}

extern "C" void cpn_formatter_free(void *formatter) {
    delete static_cast<AsYouTypeFormatter *>(formatter);
}

extern "C" void cpn_formatter_clear(void *formatter) {
    static_cast<AsYouTypeFormatter *>(formatter)->Clear();
}

extern "C" void cpn_formatter_input(void *formatter, uint32_t character, char *shown, int32_t capacity) {
    std::string result;
    static_cast<AsYouTypeFormatter *>(formatter)->InputDigit(character, &result);
    copy(result, shown, capacity > 0 ? static_cast<size_t>(capacity) : 0);
}
