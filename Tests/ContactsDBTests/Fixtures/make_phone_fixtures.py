#!/usr/bin/env python3
"""Writes phones.json: what Google's libphonenumber makes of each input,
through its Python port pinned to the C++ library the engine links
(`pip install phonenumbers==8.12.57`, Debian's libphonenumber-dev 8.12.57).

docs/model.md, "Order, sections and phone numbers": a number written with "+"
is read as it is; one without is read in the database's default regions, in
order, and takes its country from the first where it is valid. Display: +7
numbers in the mask "+7 (912) 345-67-89", numbers of a default region in their
national form, others in the international form; no E.164, as written.

Also writes, per region, what the as-you-type formatter shows after each
character typed.

Run from this folder: python3 make_phone_fixtures.py > phones.json
"""
import json
import sys

import phonenumbers
from phonenumbers import NumberParseException, PhoneNumberFormat, PhoneNumberType

assert phonenumbers.__version__ == "8.12.57", phonenumbers.__version__

INPUTS = [
    # Russia
    "+7 912 345-67-89", "+7 (912) 345 67 89", "+79123456789", "8 (912) 345-67-89", "89123456789",
    "8 495 123-45-67", "+7 (812) 555-12-34", "8-800-555-35-35", "9123456789",
    # Korea, domestic and international, with and without the trunk 0
    "010-1234-5678", "01012345678", "011-123-4567", "016-987-6543", "019 1234 5678",
    "02-123-4567", "02-1234-5678", "(02) 765 4321", "031-123-4567", "031-1234-5678", "032 555 1234",
    "042-861-1234", "051-123-4567", "053.123.4567", "064-712-3456", "070-1234-5678", "070 7777 8888",
    "+82 10 1234 5678", "+82 010 1234 5678", "+82-2-123-4567", "+82 02 1234 5678", "+82 31 123 4567",
    "+82 (0)31 1234 5678", "+82 70 1234 5678", "+82 11 123 4567", "+82 1588 1234", "+82 1644-5678",
    # United States and Canada
    "+1 (415) 555-0132", "+1 212 555 0199", "(650) 253-0000", "650.253.0000", "1-800-275-2273", "+1 604 555 0199",
    # United Kingdom
    "+44 20 7946 0958", "020 7946 0958", "07911 123456", "+44 7911 123456",
    # Germany, France, Japan, China, India, Brazil, Australia, Kazakhstan, Ukraine
    "+49 151 2345 6789", "+49 30 1234567", "030 1234567", "0151 23456789",
    "+33 1 23 45 67 89", "01 23 45 67 89", "+81 3-1234-5678", "03-1234-5678", "090-1234-5678",
    "+86 138 0013 8000", "+91 98765 43210", "+55 11 91234-5678", "+61 2 9876 5432", "+61 412 345 678",
    "+7 701 123 4567", "+380 44 123 4567",
    # Short, unknown or not a number
    "123456789", "0212345678901", "071-123-4567", "900", "*100#", "+999 123 4567", "12",
]
REGION_SETS = ["RU,KR", "US,GB", "DE,FR"]
TYPE_NAMES = {
    value: name for name, value in vars(PhoneNumberType).items()
    if name.isupper() and isinstance(value, int)
}


def tidy(value):
    return " ".join(value.split())


def read(value, regions):
    if value.startswith("+"):
        try:
            return phonenumbers.parse(value, None)
        except NumberParseException:
            return None
    first = None
    for region in regions:
        try:
            number = phonenumbers.parse(value, region)
        except NumberParseException:
            continue
        if phonenumbers.is_valid_number(number):
            return number
        first = first or number
    return first


def fixture(value, region_set):
    regions = region_set.split(",")
    value = tidy(value)
    number = read(value, regions)
    entry = {"input": value, "regions": region_set, "e164": None, "display": value, "described": None}
    if number is None:
        return entry
    valid = phonenumbers.is_valid_number(number)
    e164 = phonenumbers.format_number(number, PhoneNumberFormat.E164)
    region = phonenumbers.region_code_for_number(number)
    entry["described"] = {
        "e164": e164,
        "national": phonenumbers.format_number(number, PhoneNumberFormat.NATIONAL),
        "international": phonenumbers.format_number(number, PhoneNumberFormat.INTERNATIONAL),
        "region": region if region not in (None, "ZZ") else None,
        "type": TYPE_NAMES.get(phonenumbers.number_type(number), "UNKNOWN"),
        "valid": valid,
    }
    if not (value.startswith("+") or valid):
        return entry
    entry["e164"] = e164
    again = phonenumbers.parse(e164, None)
    if e164.startswith("+7") and len(e164) == 12:
        national = e164[2:]
        entry["display"] = f"+7 ({national[0:3]}) {national[3:6]}-{national[6:8]}-{national[8:10]}"
    elif phonenumbers.region_code_for_number(again) in regions:
        entry["display"] = phonenumbers.format_number(again, PhoneNumberFormat.NATIONAL)
    else:
        entry["display"] = phonenumbers.format_number(again, PhoneNumberFormat.INTERNATIONAL)
    return entry


def typing(region, keys):
    formatter = phonenumbers.AsYouTypeFormatter(region)
    return {"region": region, "keys": keys, "shown": [formatter.input_digit(key) for key in keys]}


json.dump({
    "numbers": [fixture(value, regions) for regions in REGION_SETS for value in INPUTS],
    "typing": [
        typing("KR", "01071234567"), typing("KR", "0212345678"), typing("KR", "+821012345678"),
        typing("RU", "89123456789"), typing("RU", "+79123456789"), typing("RU", "84951234567"),
        typing("US", "6502530000"), typing("GB", "02079460958"), typing("DE", "015123456789"),
    ],
}, sys.stdout, ensure_ascii=False, indent=1)
sys.stdout.write("\n")
