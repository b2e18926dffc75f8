#!/usr/bin/env python3
"""Flatten contacts (NDJSON from `ohana convert`) into the CSV Splink reads.

usage: export_flat.py IN.ndjson OUT.csv

Columns: unique_id, first_name, surname, full_name (lower case, accents
stripped), phone1..phone3 (the last nine digits, leading zeros dropped:
the same region-independent normalization ohana uses, so both tools see
equally clean phones), email1..email3 (lower case), postcode (letters and
digits, upper case), address (street + postcode, folded), dob.
"""
import csv
import json
import re
import sys
import unicodedata


def fold(s):
    if not s:
        return ""
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c)).lower()
    return re.sub(r"\s+", " ", re.sub(r"[^\w]+", " ", s)).strip()


def phone(v):
    d = re.sub(r"\D", "", v or "").lstrip("0")
    d = d[-9:].lstrip("0")
    return d if len(d) >= 5 else ""


def main():
    src, dst = sys.argv[1], sys.argv[2]
    cols = ["unique_id", "first_name", "surname", "full_name", "phone1", "phone2", "phone3",
            "email1", "email2", "email3", "postcode", "address", "dob"]
    with open(src, encoding="utf-8") as f, open(dst, "w", newline="", encoding="utf-8") as out:
        w = csv.writer(out)
        w.writerow(cols)
        for line in f:
            c = json.loads(line)
            fields = c.get("fields", [])
            phones = [p for p in (phone(x.get("value")) for x in fields if x.get("type") == "phone") if p][:3]
            emails = [x.get("value", "").strip().lower() for x in fields if x.get("type") == "email"][:3]
            addrs = c.get("addresses", [])
            a = addrs[0] if addrs else {}
            pc = re.sub(r"[^0-9A-Za-z]", "", a.get("postalCode", "") or "").upper()
            street = fold(a.get("street", ""))
            given, family = c.get("givenName"), c.get("familyName")
            if not given and not family:
                family = c.get("fullName") or c.get("organization")
            row = [c.get("uid"), fold(given), fold(family), fold(c.get("fullName"))]
            row += phones + [""] * (3 - len(phones))
            row += emails + [""] * (3 - len(emails))
            row += [pc, (street + " " + pc).strip() if street and pc else "", c.get("birthday", "") or ""]
            w.writerow([x if x else None for x in row])


if __name__ == "__main__":
    main()
