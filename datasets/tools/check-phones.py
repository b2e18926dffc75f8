#!/usr/bin/env python3
"""Checks the generator's phone numbers with libphonenumber (PyPI `phonenumbers`).

Usage:
  ohana generate --contacts 20000 --seed 4 --version 3.0 -o /tmp/check.vcf
  python3 datasets/tools/check-phones.py /tmp/check.vcf

Each card's region comes from the country of its addresses (cards without a
country are skipped); every TEL value is parsed with that default region and
must be a valid number. Prints the share of valid numbers and examples of
invalid ones per region. Exit status 1 if more than 0.5% are invalid.
"""
import collections
import sys

import phonenumbers

COUNTRY_TO_REGION = {
    "United States": "US", "United Kingdom": "GB", "Canada": "CA", "Australia": "AU",
    "India": "IN", "भारत": "IN", "Deutschland": "DE", "France": "FR", "España": "ES",
    "México": "MX", "Italia": "IT", "Nederland": "NL", "Brasil": "BR", "Polska": "PL",
    "Sverige": "SE", "Türkiye": "TR", "Россия": "RU", "Україна": "UA", "Ελλάδα": "GR",
    "المملكة العربية السعودية": "SA", "مصر": "EG", "ישראל": "IL", "中国": "CN", "日本": "JP",
    "대한민국": "KR", "ประเทศไทย": "TH", "Việt Nam": "VN", "საქართველო": "GE",
}


def main(path):
    text = open(path, encoding="utf-8", newline="").read().replace("\r\n ", "")
    total = collections.Counter()
    bad = collections.defaultdict(list)
    for card in text.split("BEGIN:VCARD")[1:]:
        lines = card.split("\r\n")
        region = None
        for line in lines:
            if line.startswith("ADR") and ":" in line:
                region = COUNTRY_TO_REGION.get(line.split(":", 1)[1].split(";")[-1], region)
        if region is None:
            continue
        for line in lines:
            name = line.split(":", 1)[0]
            if "TEL" not in name.split(";")[0] or ":" not in line:
                continue
            value = line.split(":", 1)[1]
            total[region] += 1
            try:
                ok = phonenumbers.is_valid_number(phonenumbers.parse(value, region))
            except phonenumbers.NumberParseException:
                ok = False
            if not ok:
                bad[region].append(value)
    n = sum(total.values())
    invalid = sum(len(v) for v in bad.values())
    print(f"phonenumbers {phonenumbers.__version__}: {n} numbers, {invalid} invalid ({100 * invalid / max(n, 1):.3f}%)")
    for region in sorted(bad):
        print(f"  {region}: {len(bad[region])}/{total[region]} e.g. {bad[region][:5]}")
    return 1 if invalid > 0.005 * n else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
