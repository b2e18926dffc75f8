#!/usr/bin/env python3
"""Parses every card of a file with vobject and counts them: the vobject
side of compare.sh. vobject's stream reader stops at the first card it
cannot parse (for example a 2.1 quoted-printable soft line break inside a
UTF-8 character), so cards are cut at BEGIN:VCARD lines here and each one
goes through vobject.readOne; failures are counted, not fatal."""
import os
import sys
import time

import vobject


def cards(f):
    buf = []
    for line in f:
        if line[:11].upper() == "BEGIN:VCARD" and buf:
            yield "".join(buf)
            buf = []
        buf.append(line)
    if buf:
        yield "".join(buf)


path = sys.argv[1]
t0 = time.perf_counter()
ok = failed = 0
with open(path, encoding="utf-8", errors="replace", newline="") as f:
    for text in cards(f):
        try:
            vobject.readOne(text, ignoreUnreadable=True)
            ok += 1
        except Exception:
            failed += 1
secs = time.perf_counter() - t0
mb = os.path.getsize(path) / 1e6
print("vobject: %.1f MB, %d cards, %d failed, %.3f s, %.1f MB/s, %.0f cards/s"
      % (mb, ok, failed, secs, mb / secs, (ok + failed) / secs))
