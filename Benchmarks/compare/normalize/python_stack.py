"""The Python stack a data engineer would script to normalize contacts, for
`ohana normalize` beside it (issue 46, "Speed"): python-nameparser for
names, email-validator for e-mails, phonenumbers for phones (E.164),
pycountry for countries, datetime for birthdays; the same work as ohana's
normalizers, value by value.

Input: the contacts as NDJSON (`ohana convert --to ndjson`, not timed).
Output: one JSON line per contact with the normalized values. Runs on
PROCS processes (default: every core) over slices of the input; the time
printed covers the normalization and the write, not the read of the
NDJSON (kinder to Python than ohana's figure, which includes its read).

Usage: python_stack.py IN.ndjson OUT.ndjson [region]"""

import datetime
import json
import multiprocessing
import os
import sys
import time

import email_validator
import nameparser
import phonenumbers
import pycountry

REGION = sys.argv[3] if len(sys.argv) > 3 else "US"


def name(c):
    full = c.get("fullName") or " ".join(c.get(k, "") for k in ("givenName", "familyName")).strip()
    if not full:
        return None
    h = nameparser.HumanName(full)
    h.capitalize()
    return [h.title, h.first, h.middle, h.last, h.suffix]


def email(v):
    try:
        return email_validator.validate_email(v.strip(), check_deliverability=False).normalized
    except email_validator.EmailNotValidError:
        return v.strip()


def phone(v):
    try:
        return phonenumbers.format_number(phonenumbers.parse(v, REGION), phonenumbers.PhoneNumberFormat.E164)
    except phonenumbers.NumberParseException:
        return v


def country(v):
    try:
        return pycountry.countries.lookup(v.strip()).alpha_2
    except LookupError:
        return v


def birthday(v):
    for fmt in ("%Y-%m-%d", "%Y%m%d", "%d.%m.%Y"):
        try:
            return datetime.datetime.strptime(v[:10], fmt).date().isoformat()
        except ValueError:
            pass
    return v


def normalize(lines):
    out = []
    for line in lines:
        c = json.loads(line)
        r = {"name": name(c)}
        fields = c.get("fields", [])
        r["emails"] = [email(f["value"]) for f in fields if f.get("type") == "email"]
        r["phones"] = [phone(f["value"]) for f in fields if f.get("type") == "phone"]
        r["countries"] = [country(a["country"]) for a in c.get("addresses", []) if a.get("country")]
        if c.get("birthday"):
            r["birthday"] = birthday(c["birthday"])
        out.append(json.dumps(r, ensure_ascii=False))
    return out


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        lines = f.read().splitlines()
    procs = int(os.environ.get("PROCS", os.cpu_count() or 1))
    start = time.perf_counter()
    size = max(1, len(lines) // (procs * 8))
    slices = [lines[i:i + size] for i in range(0, len(lines), size)]
    with multiprocessing.Pool(procs) as pool, open(sys.argv[2], "w", encoding="utf-8") as out:
        for part in pool.imap(normalize, slices):
            out.write("\n".join(part) + "\n")
    print(f"python stack: {len(lines)} contacts in {time.perf_counter() - start:.1f} s on {procs} processes")


if __name__ == "__main__":
    main()
