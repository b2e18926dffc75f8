#!/usr/bin/env python3
"""Benchmark harness for Python phonenumbers: same work and columns as `ohana phone`."""
import sys
import time

import phonenumbers
from phonenumbers import PhoneNumberFormat as PNF
from phonenumbers import PhoneNumberType as PNT

ERRORS = {0: "INVALID_COUNTRY_CODE", 1: "NOT_A_NUMBER", 2: "TOO_SHORT_AFTER_IDD", 3: "TOO_SHORT_NSN", 4: "TOO_LONG"}


def main():
  if hasattr(phonenumbers, "enable_pattern_cache"):
    phonenumbers.enable_pattern_cache()
  rows = []
  for line in sys.stdin.buffer.read().decode("utf-8", "replace").split("\n"):
    if not line:
      continue
    raw, _, region = line.partition("\t")
    region = region.split("\t")[0] or "US"
    rows.append((raw, region))
  out = []
  start = time.process_time()
  for raw, region in rows:
    try:
      n = phonenumbers.parse(raw, region)
    except phonenumbers.NumberParseException as e:
      out.append("%s\t%s\t0\t\t\t\t\t0\t%s" % (raw, region, ERRORS[e.error_type]))
      continue
    f = [phonenumbers.format_number(n, k) for k in (PNF.E164, PNF.INTERNATIONAL, PNF.NATIONAL, PNF.RFC3966)]
    valid = phonenumbers.is_valid_number(n)
    t = phonenumbers.number_type(n)
    out.append("\t".join([raw, region, "1"] + f + ["1" if valid else "0", PNT.to_string(t)]))
  cpu = time.process_time() - start
  sys.stdout.write("\n".join(out) + "\n")
  print("python %d numbers %.3f s cpu" % (len(rows), cpu), file=sys.stderr)


if __name__ == "__main__":
  main()
