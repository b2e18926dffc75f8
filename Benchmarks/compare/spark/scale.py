"""The Spark job against one-machine `ohana dedupe` at several sizes
(Benchmarks/HISTORY.md "More than one machine").

    python Benchmarks/compare/spark/scale.py --sizes 250000,500000 --work /tmp/spk

For each size: a generated address book (seed 11, dup-rate 0.1, written
once as NDJSON so that Spark can cut it into 64 MiB pieces and read them in
parallel), `ohana dedupe` on it (wall time and peak memory by GNU time),
then `python -m ohana.spark dedupe` in local mode on all cores (wall time,
each step's time, and each step's shuffle bytes from Spark's event log),
then the two clusterings compared as partitions. Needs the release
`ohana` (swift build -c release --product ohana; $OHANA names another
binary), the package installed (pip install ./python) with pyspark, and
Java 17. Prints the versions, a JSON line per size, then a Markdown table."""

import argparse
import collections
import csv
import glob
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[3]
CLI = pathlib.Path(os.environ.get("OHANA") or ROOT / ".build" / "release" / "ohana")


def timed(cmd, **kw):
    start = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, **kw)
    wall = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{done.stderr[-3000:]}")
    peak = 0
    for line in done.stderr.splitlines():
        if "Maximum resident set size" in line:
            peak = int(line.split(":")[1]) * 1024
    return wall, peak, done.stderr


def shuffle_by_step(event_dir):
    """Shuffle bytes written per job group (ohana:STEP) from the event log."""
    logs = sorted(glob.glob(os.path.join(event_dir, "*")), key=os.path.getmtime)
    if not logs:
        return {}
    stage_group, written, read_ = {}, collections.Counter(), collections.Counter()
    with open(logs[-1]) as f:
        for line in f:
            e = json.loads(line)
            kind = e.get("Event")
            if kind == "SparkListenerStageSubmitted":
                props = e.get("Properties") or {}
                stage_group[e["Stage Info"]["Stage ID"]] = props.get("spark.jobGroup.id", "?")
            elif kind == "SparkListenerTaskEnd":
                m = e.get("Task Metrics") or {}
                g = stage_group.get(e.get("Stage ID"), "?")
                written[g] += (m.get("Shuffle Write Metrics") or {}).get("Shuffle Bytes Written", 0)
                r = m.get("Shuffle Read Metrics") or {}
                read_[g] += r.get("Remote Bytes Read", 0) + r.get("Local Bytes Read", 0)
    return {g.replace("ohana:", ""): (written[g], read_[g]) for g in set(written) | set(read_)}


def partition(mapping):
    groups = collections.defaultdict(set)
    for uid, c in mapping.items():
        groups[c].add(uid)
    return {frozenset(s) for s in groups.values()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="250000,500000,1000000,2000000")
    ap.add_argument("--work", default="/tmp/spk")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--homes", type=int, help="ohana.spark.dedupe(homes=...): partitions holding the contacts (default: twice the parallelism)")
    args = ap.parse_args()
    work = pathlib.Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    import importlib.metadata

    import ohana

    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    print(f"versions: pyspark {importlib.metadata.version('pyspark')}, {java[0] if java else 'java ?'}, "
          f"ohana package {ohana.__file__}, ohana {CLI}", flush=True)
    rows = []
    for n in [int(x) for x in args.sizes.split(",")]:
        vcf = work / f"c{n}.vcf"
        nd = work / f"c{n}.ndjson"
        if not vcf.exists():
            subprocess.run([str(CLI), "generate", "--contacts", str(n), "--seed", "11", "--dup-rate", "0.1", "-o", str(vcf), "-q"], check=True)
        if not nd.exists():
            subprocess.run([str(CLI), "convert", str(vcf), "-o", str(nd), "-q"], check=True)
        one_csv = work / f"one{n}.csv"
        one_wall, one_peak, one_err = timed([str(CLI), "dedupe", str(nd), "-o", str(work / f"one{n}.ndjson"), "--clusters", str(one_csv)])
        out = work / f"spark{n}"
        events = work / f"events{n}"
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(events, ignore_errors=True)
        events.mkdir()
        env = dict(os.environ, OHANA_SPARK_DRIVER_MEMORY=os.environ.get("OHANA_SPARK_DRIVER_MEMORY", "10g"))
        code = (
            "import sys; from ohana import spark as s; sp = s.session(sys.argv[1]);"
            "sp.sparkContext.setLogLevel('ERROR');"
            "h = int(sys.argv[4]) if len(sys.argv) > 4 else None;"
            "r = s.dedupe(sp, [sys.argv[2]], sys.argv[3], homes=h); print(r.to_json())"
        )
        env["PYSPARK_SUBMIT_ARGS"] = (
            f"--conf spark.eventLog.enabled=true --conf spark.eventLog.dir=file://{events} "
            "--conf spark.eventLog.rolling.enabled=false --conf spark.eventLog.compress=false pyspark-shell")
        sp_wall, sp_peak, _ = timed([sys.executable, "-c", code, args.master, str(nd), str(out)] + ([str(args.homes)] if args.homes else []), env=env)
        report = json.loads((out / "report.json").read_text())
        with open(one_csv) as f:
            one = {r["uid"]: r["cluster_id"] for r in csv.DictReader(f)}
        import pyarrow.parquet as pq

        t = pq.read_table(out / "clusters").to_pydict()
        spk = dict(zip(t["uid"], t["cluster_id"]))
        a, b = partition(one), partition(spk)
        shuffle = shuffle_by_step(str(events))
        rows.append((n, one_wall, one_peak, sp_wall, sp_peak, report, a == b, len(a - b), one == spk, shuffle))
        print(json.dumps({"n": n, "one_s": round(one_wall, 2), "one_peak_gb": round(one_peak / 1e9, 2), "spark_s": round(sp_wall, 2),
                          "spark_driver_python_peak_gb": round(sp_peak / 1e9, 2), "steps": report["seconds"],
                          "pairs": report["pairs_compared"], "accepted": report["pairs_accepted"], "largest_block": report["blocking"]["largest_block"],
                          "equal_partitions": a == b, "clusters_differing": len(a - b), "equal_ids": one == spk,
                          "shuffle_written": {k: v[0] for k, v in shuffle.items()}}), flush=True)
    print()
    print("| contacts | one machine | Spark | Spark steps: read / blocking / scoring / components / merge+write | shuffle written per step (MB) | pairs compared | same clusters |")
    print("| ---: | ---: | ---: | --- | --- | ---: | --- |")
    for n, ow, op, sw, spp, rep, eq, diff, ids, sh in rows:
        st = rep["seconds"]
        steps = " / ".join(f"{st.get(k, 0):.0f}" for k in ("read", "blocking", "scoring", "components", "merge+write"))
        shuf = " / ".join(f"{sh.get(k, (0, 0))[0] / 1e6:.0f}" for k in ("read", "blocking", "scoring", "components", "merge+write"))
        print(f"| {n:,} | {ow:.1f} s | {sw:.1f} s | {steps} s | {shuf} | {rep['pairs_compared']:,} | {'yes' if eq else f'no ({diff} differ)'}{', same ids' if ids else ''} |")


if __name__ == "__main__":
    main()
