#!/usr/bin/env python3
"""Measures ICU's charset detection as `ohana` uses it, on the files
gen_legacy.py wrote.

    python3 measure.py OHANA_BINARY DIR

For every DIR/*.vcf: `ohana stats` gives the detector's best answer over the
file's undeclared 8-bit text and its confidence; `ohana convert --charset
ANSWER` and `--charset windows-1252` say whether the names (full, given,
family, locality of every card) come out as the generator's Unicode
(DIR/*.expected.ndjson) when that answer, or the fallback, is used; a plain
`ohana convert` says what the default does. Prints one line per big file,
a summary per charset and size for the small ones, and for each candidate
minimum confidence how many files come out right with ohana's rules.
"""
import collections
import json
import os
import subprocess
import sys


def run(args):
    p = subprocess.run(args, capture_output=True)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def names(ndjson_bytes):
    out = []
    for line in ndjson_bytes.decode("utf-8", "replace").splitlines():
        if not line.strip():
            continue
        c = json.loads(line)
        loc = ""
        for a in c.get("addresses", []):
            loc = a.get("locality", "")
            break
        out.append((c.get("fullName", ""), c.get("givenName", ""), c.get("familyName", ""), loc))
    return out


def expected(path):
    with open(path, encoding="utf-8") as fh:
        return [tuple(json.loads(l)[k] for k in ("fullName", "givenName", "familyName", "locality")) for l in fh]


def right(binary, vcf, exp, charset=None, extra=()):
    args = [binary, "convert", vcf, "-o", "-", "--to", "ndjson", "-q", *extra]
    if charset:
        args += ["--charset", charset]
    rc, out, err = run(args)
    return rc == 0 and names(out) == exp


def main():
    binary, d = sys.argv[1], sys.argv[2]
    rows = []
    for f in sorted(os.listdir(d)):
        if not f.endswith(".vcf"):
            continue
        vcf = os.path.join(d, f)
        stem = f[:-4]
        parts = stem.split("-")
        if parts[-1].startswith("s"):
            charset, size = "-".join(parts[:-2]), int(parts[-2])
        else:
            charset, size = "-".join(parts[:-1]), int(parts[-1])
        exp = expected(os.path.join(d, stem + ".expected.ndjson"))
        rc, out, err = run([binary, "stats", vcf, "-q"])
        cs = json.loads(out).get("charset") or {}
        det, conf = cs.get("detected"), cs.get("confidence", 0)
        rows.append(dict(file=f, charset=charset, size=size, detected=det, confidence=conf,
                         right_if_used=bool(det) and right(binary, vcf, exp, det),
                         right_if_fallback=right(binary, vcf, exp, "windows-1252"),
                         right_default=right(binary, vcf, exp), used=cs.get("name"), source=cs.get("source")))
    print("| file | cards | detected | confidence | names right if used | default reads as | names right |")
    print("| --- | ---: | --- | ---: | --- | --- | --- |")
    for r in rows:
        if r["size"] >= 1000:
            print(f"| {r['file']} | {r['size']} | {r['detected']} | {r['confidence']} | "
                  f"{'yes' if r['right_if_used'] else 'no'} | {r['used']} ({r['source']}) | "
                  f"{'yes' if r['right_default'] else 'no'} |")
    print()
    print("Small files (10 samples each): detector's answers, confidence range when right / when wrong")
    print("| charset | cards | right answers | confidence when right | wrong answers (confidence) | default names right |")
    print("| --- | ---: | ---: | --- | --- | ---: |")
    groups = collections.defaultdict(list)
    for r in rows:
        if r["size"] < 1000:
            groups[(r["charset"], r["size"])].append(r)
    for (cs, size), rs in sorted(groups.items()):
        ok = [r["confidence"] for r in rs if r["right_if_used"]]
        bad = collections.Counter((r["detected"], r["confidence"]) for r in rs if not r["right_if_used"])
        badtxt = ", ".join(f"{d} {c}" + (f" ×{n}" if n > 1 else "") for (d, c), n in sorted(bad.items())) or "-"
        rng = f"{min(ok)}–{max(ok)}" if ok else "-"
        print(f"| {cs} | {size} | {len(ok)}/{len(rs)} | {rng} | {badtxt} | "
              f"{sum(r['right_default'] for r in rs)}/{len(rs)} |")
    print()
    print("Minimum confidence T (--detection-confidence T): files whose names come out right with ohana's rules")
    print("| T | right | wrong | wrong where windows-1252 was right | right, 1-card files | right, 100+-card files |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for t in (10, 15, 20, 25, 30, 35, 40, 50, 60):
        ok = harm = ok1 = okbig = n1 = nbig = 0
        for r in rows:
            vcf = os.path.join(d, r["file"])
            exp = expected(vcf[:-4] + ".expected.ndjson")
            good = right(binary, vcf, exp, None, ["--detection-confidence", str(t)])
            ok += good
            harm += (not good) and r["right_if_fallback"]
            if r["size"] == 1:
                n1 += 1
                ok1 += good
            if r["size"] >= 100:
                nbig += 1
                okbig += good
        print(f"| {t} | {ok} | {len(rows) - ok} | {harm} | {ok1}/{n1} | {okbig}/{nbig} |")

if __name__ == "__main__":
    main()
