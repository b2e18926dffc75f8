"""Issue 17's benchmark: reading a vCard file into a pyarrow.Table from
Python, beside the command line's own read (`ohana stats`), vobject on a
subset, and the time to the first DuckDB query on the result.

    pip install ./python duckdb vobject           # from the repository
    python Benchmarks/compare/python/read_arrow.py /tmp/d1m/c1m.vcf \
        --cli .build/release/ohana --runs 3 --vobject-cards 20000

Each figure is the best of --runs runs (wall clock, seconds), each run in a
fresh process so that no run profits from the one before (page cache
aside: the file is read once first to warm it for all of them).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

CHILD_READ = r"""
import sys, time, ohana
t0 = time.perf_counter()
contacts = ohana.read([sys.argv[1]])
t1 = time.perf_counter()
import duckdb
t2 = time.perf_counter()
n, names = duckdb.sql("select count(*), count(distinct familyName) from contacts").fetchall()[0]
t3 = time.perf_counter()
phones = duckdb.sql("select count(*) from (select unnest(fields) as f from contacts) where f.type = 'phone'").fetchall()[0][0]
t4 = time.perf_counter()
rss = int([l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1])
print(json.dumps({"read": t1 - t0, "rows": contacts.num_rows, "duckdb_import": t2 - t1, "first_query": t3 - t2,
                  "read_to_first_answer": t3 - t0, "unnest_query": t4 - t3, "distinct_family": names,
                  "phones": phones, "peak_rss_mib": rss / 1024, "nbytes_mib": contacts.nbytes / 2**20}))
""".replace("import sys, time, ohana", "import json, sys, time, ohana")

CHILD_VOBJECT = r"""
import json, sys, time, vobject
import pyarrow as pa
t0 = time.perf_counter()
uids, fns, families, phones = [], [], [], []
failed = 0
with open(sys.argv[1], encoding="utf-8") as f:
    text = f.read()
# Card by card, so that one card vobject cannot read (it raises on some
# quoted-printable values) costs that card, as in ohana.
for chunk in text.split("BEGIN:VCARD")[1:]:
    try:
        card = vobject.readOne("BEGIN:VCARD" + chunk)
    except Exception:
        failed += 1
        continue
    c = card.contents
    uids.append(c["uid"][0].value if "uid" in c else None)
    fns.append(c["fn"][0].value if "fn" in c else None)
    families.append(c["n"][0].value.family if "n" in c else None)
    phones.append([t.value for t in c.get("tel", [])])
table = pa.table({"uid": uids, "fullName": fns, "familyName": families, "phones": phones})
t1 = time.perf_counter()
print(json.dumps({"read": t1 - t0, "rows": table.num_rows, "cards_vobject_failed": failed}))
"""


def best(runs, command):
    out = []
    for _ in range(runs):
        done = subprocess.run(command, check=True, capture_output=True, text=True)
        out.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return min(out, key=lambda r: r["read"]), out


def time_cli(cli, path, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([cli, "stats", path], check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return min(times), times


def subset(path, cards, into):
    n = 0
    with open(path, encoding="utf-8") as src, open(into, "w", encoding="utf-8") as dst:
        for line in src:
            dst.write(line)
            if line.startswith("END:VCARD"):
                n += 1
                if n == cards:
                    break
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("--cli", default=".build/release/ohana")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--vobject-cards", type=int, default=20000)
    args = ap.parse_args()
    with open(args.path, "rb") as f:  # warm the page cache once
        while f.read(1 << 24):
            pass
    py = sys.executable
    cli_best, cli_all = time_cli(args.cli, args.path, args.runs)
    ohana_best, ohana_all = best(args.runs, [py, "-c", CHILD_READ, args.path])
    report = {
        "file": args.path,
        "cli_stats_seconds": cli_all,
        "python_read": ohana_all,
        "ratio_python_read_to_cli": ohana_best["read"] / cli_best,
    }
    if args.vobject_cards:
        with tempfile.TemporaryDirectory() as d:
            small = os.path.join(d, "subset.vcf")
            cards = subset(args.path, args.vobject_cards, small)
            v_best, _ = best(1, [py, "-c", CHILD_VOBJECT, small])
            o_best, _ = best(args.runs, [py, "-c", CHILD_READ, small])
            report["subset_cards"] = cards
            report["vobject_subset"] = v_best
            report["ohana_subset"] = o_best
            report["vobject_over_ohana"] = v_best["read"] / o_best["read"]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
