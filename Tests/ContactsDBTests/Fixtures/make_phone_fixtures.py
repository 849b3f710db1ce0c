#!/usr/bin/env python3
"""Writes phones.json: for each input, the E.164 and display forms that
Google's libphonenumber (its Python port, `pip install phonenumbers`) gives.

SPEC decides whether a number's country is known (an explicit "+", Russian
"8" + 10 digits, or a Korean domestic pattern); libphonenumber decides what
its E.164 and Korean national forms are. Russian numbers display as
"+7 (912) 345-67-89": libphonenumber's national form with "+7" for "8".

Run from this folder: python3 make_phone_fixtures.py > phones.json
"""
import json
import re
import sys

import phonenumbers

INPUTS = [
    # Russia
    "+7 912 345-67-89", "+7 (912) 345 67 89", "+79123456789", "8 (912) 345-67-89", "89123456789",
    "8 495 123-45-67", "+7 (812) 555-12-34", "8-800-555-35-35",
    # Korea, domestic: mobile 01X, Seoul 02, regional 0[3-6][1-5], 070
    "010-1234-5678", "01012345678", "011-123-4567", "016-987-6543", "019 1234 5678",
    "02-123-4567", "02-1234-5678", "(02) 765 4321", "031-123-4567", "031-1234-5678", "032 555 1234",
    "042-861-1234", "051-123-4567", "053.123.4567", "064-712-3456", "070-1234-5678", "070 7777 8888",
    # Korea, international, with and without the trunk 0
    "+82 10 1234 5678", "+82 010 1234 5678", "+82-2-123-4567", "+82 02 1234 5678", "+82 31 123 4567",
    "+82 (0)31 1234 5678", "+82 70 1234 5678", "+82 11 123 4567",
    "+82 1588 1234", "+82 1644-5678",
    # Elsewhere
    "+1 (415) 555-0132", "+1 212 555 0199", "+49 151 2345 6789", "+49 30 1234567", "+44 20 7946 0958",
    "+33 1 23 45 67 89", "+81 3-1234-5678", "+86 138 0013 8000",
    # Country unknown: digits only, displayed as stored
    "9123456789", "(415) 555-0199", "415.555.0123", "071-123-4567", "0212345678901", "123456789",
]


def known_region(value):
    digits = re.sub(r"\D", "", value)
    if value.startswith("+"):
        return None  # the "+" carries the country
    if len(digits) == 11 and digits.startswith("8"):
        return "RU"
    if re.fullmatch(r"0(2|1\d|[3-6][1-5]|70)\d{7,8}", digits):
        return "KR"
    return "unknown"


def tidy(value):
    return " ".join(value.split())


def fixture(value):
    region = known_region(value)
    if region == "unknown":
        return {"input": value, "e164": None, "display": tidy(value)}
    number = phonenumbers.parse(value, region)
    e164 = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    national = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
    if number.country_code == 82:
        display = national
    elif number.country_code == 7:
        display = "+7 " + national[2:] if national.startswith("8 ") else national
    else:
        display = tidy(value)
    return {"input": value, "e164": e164, "display": display}


json.dump([fixture(value) for value in INPUTS], sys.stdout, ensure_ascii=False, indent=1)
sys.stdout.write("\n")
