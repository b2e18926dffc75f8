#!/usr/bin/env python3
"""Generates the differential fixture for OhanaPhone (and benchmark inputs).

Raw phone numbers are built from the pinned phonenumbers 9.0.43 example
numbers of every region and type, typed the ways people type them and
mutated; about 10% are garbage or edge cases. Deterministic (seeded).

Output rows (TSV, no header), the same columns `ohana phone` prints:
  raw, region, parse_ok, e164, international, national, rfc3966, is_valid, number_type
When parse_ok is 0 the format columns are empty, is_valid is 0 and
number_type holds the failure kind (NOT_A_NUMBER, ...).

Usage:
  python3 Scripts/phone/make_fixture.py                       # the committed fixture
  python3 Scripts/phone/make_fixture.py --count 1000000 --inputs-only --out /tmp/in.tsv
"""
import argparse
import os
import random
import sys

import phonenumbers
from phonenumbers import PhoneNumberFormat as PNF
from phonenumbers import PhoneNumberType as PNT
from phonenumbers.phonemetadata import PhoneMetadata

if phonenumbers.__version__ != "9.0.43":
  sys.exit("expected phonenumbers 9.0.43, found %s" % phonenumbers.__version__)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_OUT = os.path.join(ROOT, "Tests", "OhanaPhoneTests", "Fixtures", "phone-fixture.tsv")

TYPES = [PNT.FIXED_LINE, PNT.MOBILE, PNT.TOLL_FREE, PNT.PREMIUM_RATE, PNT.SHARED_COST, PNT.VOIP,
         PNT.PERSONAL_NUMBER, PNT.PAGER, PNT.UAN, PNT.VOICEMAIL]
ERRORS = {0: "INVALID_COUNTRY_CODE", 1: "NOT_A_NUMBER", 2: "TOO_SHORT_AFTER_IDD", 3: "TOO_SHORT_NSN", 4: "TOO_LONG"}

FULLWIDTH = {str(d): chr(0xFF10 + d) for d in range(10)}
ARABIC_INDIC = {str(d): chr(0x0660 + d) for d in range(10)}
DEVANAGARI = {str(d): chr(0x0966 + d) for d in range(10)}
KEYPAD = {"2": "ABC", "3": "DEF", "4": "GHI", "5": "JKL", "6": "MNO", "7": "PQRS", "8": "TUV", "9": "WXYZ"}
SEPARATORS = [" ", "-", ".", " ", "  ", " - ", "/", "\u00A0", "\u2013", "\u3000"]
EXTENSIONS = [" ext. {}", " ext {}", " x{}", " X{}", "x{}", " #{}", "#{}", ";ext={}", " extension {}", " Ext:{}",
              " extn. {}", ", {}", ",,{}", ";{}", " ~{}", " доб. {}", " anexo {}", " int {}", " - {}#",
              " ｅｘｔ {}", " extensión {}", " x{}#"]
PREFIX_TEXT = ["Tel: ", "tel ", "Phone: ", "Mobile: ", "(", "Call ", "T. ", "☎ ", "Fax:", "*"]
SUFFIX_TEXT = [".", ")", " ", "  ", " (home)", " (work)", ";", "!", " - ", "_", " \u200e"]
GARBAGE = ["", " ", "+", "++", "0", "00", "000", "+0", "+00", "abc", "N/A", "none", "-", "()", "#", "*", "+-+-",
           "1", "12", "123", "+1", "+12", "+123", "+44", "911", "112", "+999 1234567", "+0044 20 7031 3000",
           "tel:", "tel:+", "tel:+1-650-253-0000", "tel:650-253-0000;phone-context=+1",
           "tel:253-0000;phone-context=+1-650", "tel:2530000;phone-context=example.com",
           "tel:2530000;phone-context=;", "tel:2530000;phone-context=bad_domain", "tel:123;isub=55",
           "1-800-FLOWERS", "1-800-MICROSOFT", "0800 FLOWERS", "+44 800 FLOWERS", "CALL-NOW", "x123",
           "ext 12", "(530) 583-6985 x302/x2303", "650 253 0000\\x12", "+1 (650) 253-0000 ext. 12345678901",
           "+49 (0) 30 123456", "+41 (0) 78 927 2696", "0041 78 927 2696", "011 44 20 7031 3000",
           "+011 44 20 7031 3000", "+44 (0)20 7031 3000", "++44 20 7031 3000", "＋４４ ２０ ７０３１ ３０００",
           "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669", "12345678901234567890",
           "123456789012345678901234567890", "1" * 260, "+1 " + "2" * 30, "55:12:34", "650,253,0000",
           "650\u200e253\u200e0000", "650 253 0000 é", "650 253 0000ー", "+1 650 253 0000 / +1 650 253 0001",
           "0", "+800 1234 5678", "+882 1234 567890", "+979 123456789", "+870 773 111 632"]


def expected(raw, region):
  try:
    n = phonenumbers.parse(raw, region)
  except phonenumbers.NumberParseException as e:
    return ["0", "", "", "", "", "0", ERRORS[e.error_type]]
  cols = ["1"] + [phonenumbers.format_number(n, f) for f in (PNF.E164, PNF.INTERNATIONAL, PNF.NATIONAL, PNF.RFC3966)]
  t = phonenumbers.number_type(n)
  cols.append("1" if t != PNT.UNKNOWN else "0")
  cols.append(PNT.to_string(t))
  return cols


def map_digits(s, table):
  return "".join(table.get(c, c) for c in s)


def group(rng, digits):
  """Random grouping of a digit string with separators."""
  out = []
  i = 0
  sep = rng.choice(SEPARATORS)
  while i < len(digits):
    k = rng.randint(2, 4)
    out.append(digits[i:i + k])
    i += k
  if rng.random() < 0.3 and len(out) > 1:
    out[0] = "(" + out[0] + ")"
  return sep.join(out)


def vanity(rng, digits):
  chars = list(digits)
  idx = [i for i, c in enumerate(chars) if c in KEYPAD]
  rng.shuffle(idx)
  for i in idx[:rng.randint(3, 7)]:
    letter = rng.choice(KEYPAD[chars[i]])
    chars[i] = letter if rng.random() < 0.7 else letter.lower()
  return "".join(chars)


def mutate(rng, digits):
  if not digits:
    return digits
  k = rng.randrange(4)
  i = rng.randrange(len(digits))
  if k == 0:
    return digits[:i] + digits[i + 1:]
  if k == 1:
    return digits[:i] + str(rng.randrange(10)) + digits[i:]
  if k == 2:
    return digits[:i] + str(rng.randrange(10)) + digits[i + 1:]
  return digits + str(rng.randrange(10)) * rng.randint(1, 4)


def idd_for(region):
  md = PhoneMetadata.metadata_for_region(region)
  if md is None:
    return None
  if md.preferred_international_prefix:
    return md.preferred_international_prefix.replace("~", "")
  ip = md.international_prefix or ""
  if ip.isdigit():
    return ip
  return None


def examples():
  regions = sorted(phonenumbers.SUPPORTED_REGIONS)
  out = []
  for r in regions:
    for t in TYPES:
      n = phonenumbers.example_number_for_type(r, t)
      if n is not None:
        out.append((r, n))
    inv = phonenumbers.invalid_example_number(r)
    if inv is not None:
      out.append((r, inv))
  for cc in sorted(phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS):
    n = phonenumbers.example_number_for_non_geo_entity(cc)
    if n is not None:
      out.append(("001", n))
  return regions, out


FUZZ_TOKENS = (list("0123456789") * 4 + list("+-.()/ xX#*;,~:_") + list("abcdeknostxABCDEFXYZ") +
               ["\uFF10", "\uFF15", "\u0663", "\u0967", "\uFF0B", "\u00A0", "\u2013", "\uFF0D", "\u3000",
                "\uFF08", "\uFF09", "\u30FC", "\u200B", "\u00AD", "\u2060", "\uFF5E", "\uFF03", "\uFF58",
                "ext", "ext.", "x", "#", ";ext=", ",,", ";", "доб", "anexo", "int", "ｅｘｔ", "extensión",
                "tel:", ";phone-context=", ";isub=", "+1", "+44", "00", "011", "0", "é", "ß", "中", "\U0001D7D8",
                "\\", "/x", "ı", "ſ", "K", "İ"])


def fuzz(rng):
  return "".join(rng.choice(FUZZ_TOKENS) for _ in range(rng.randint(1, 24)))


FUZZ_RATE = 0.05


def make_raw(rng, regions, ex):
  """One (raw, default region) pair."""
  if rng.random() < FUZZ_RATE:
    return fuzz(rng), rng.choice(regions)
  if rng.random() < 0.06:
    raw = rng.choice(GARBAGE)
    if rng.random() < 0.5 and raw:
      raw = "".join(c for c in raw if rng.random() < 0.85) or raw
    return raw, rng.choice(regions + ["ZZ", "001"] if rng.random() < 0.05 else regions)
  region, n = rng.choice(ex)
  home = region if region != "001" else rng.choice(regions)
  cc = str(n.country_code)
  nsn = phonenumbers.national_significant_number(n)
  if rng.random() < 0.12:
    nsn = mutate(rng, nsn)
  style = rng.randrange(16)
  md = PhoneMetadata.metadata_for_region(home)
  np = (md.national_prefix or "") if md else ""
  same_cc = md is not None and str(md.country_code) == cc
  if style == 0:
    raw = "+" + cc + nsn
  elif style == 1:
    try:
      raw = phonenumbers.format_number(phonenumbers.parse("+" + cc + nsn, None), PNF.INTERNATIONAL)
    except phonenumbers.NumberParseException:
      raw = "+" + cc + " " + nsn
  elif style == 2 and same_cc:
    try:
      raw = phonenumbers.format_number(phonenumbers.parse("+" + cc + nsn, None), PNF.NATIONAL)
    except phonenumbers.NumberParseException:
      raw = np + nsn
  elif style == 3 and same_cc:
    raw = nsn
  elif style == 4 and same_cc:
    raw = group(rng, np + nsn)
  elif style == 5:
    raw = "+" + cc + " " + group(rng, nsn)
  elif style == 6:
    # Dialled from another country with its IDD.
    other = rng.choice(regions)
    idd = idd_for(other)
    if idd:
      home = other
      raw = idd + rng.choice(["", " ", "-"]) + cc + " " + group(rng, nsn)
    else:
      raw = "00" + cc + nsn
  elif style == 7:
    raw = "tel:+" + cc + "-" + group(rng, nsn).replace(" ", "-")
    if rng.random() < 0.3:
      raw = "tel:" + nsn + ";phone-context=+" + cc
  elif style == 8:
    raw = ("+" + cc + " " if rng.random() < 0.5 or not same_cc else np) + group(rng, nsn)
    raw = map_digits(raw, rng.choice([FULLWIDTH, ARABIC_INDIC, DEVANAGARI]))
    if rng.random() < 0.3:
      raw = raw.replace("+", "\uFF0B")
  elif style == 9:
    raw = ("+" + cc + " " if rng.random() < 0.5 or not same_cc else np) + vanity(rng, nsn)
  elif style == 10:
    raw = ("+" + cc + " " if not same_cc or rng.random() < 0.5 else np) + group(rng, nsn)
    raw += rng.choice(EXTENSIONS).format("".join(rng.choice("0123456789") for _ in range(rng.randint(1, 12))))
  elif style == 11:
    raw = rng.choice(PREFIX_TEXT) + "+" + cc + " " + group(rng, nsn) + rng.choice(SUFFIX_TEXT)
  elif style == 12 and same_cc:
    raw = cc + nsn if rng.random() < 0.5 else cc + " " + np + nsn
  elif style == 13:
    raw = "+" + cc + " (" + (np or "0") + ") " + group(rng, nsn)
  elif style == 14:
    raw = "00" + cc + " " + group(rng, nsn)
  else:
    raw = "+" + cc + group(rng, nsn)
  return raw, home


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--count", type=int, default=25000)
  ap.add_argument("--seed", type=int, default=20261121)
  ap.add_argument("--out", default=DEFAULT_OUT)
  ap.add_argument("--inputs-only", action="store_true", help="write raw<TAB>region only")
  ap.add_argument("--fuzz-rate", type=float, default=0.05, help="share of random token soups")
  args = ap.parse_args()
  global FUZZ_RATE
  FUZZ_RATE = args.fuzz_rate
  rng = random.Random(args.seed)
  regions, ex = examples()
  with open(args.out, "w", encoding="utf-8", newline="\n") as f:
    written = 0
    while written < args.count:
      raw, region = make_raw(rng, regions, ex)
      if any(c in raw for c in "\t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"):
        continue
      if args.inputs_only:
        f.write(raw + "\t" + region + "\n")
      else:
        f.write("\t".join([raw, region] + expected(raw, region)) + "\n")
      written += 1
  print("wrote %d rows to %s" % (args.count, args.out), file=sys.stderr)


if __name__ == "__main__":
  main()
