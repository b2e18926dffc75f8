#!/usr/bin/env python3
"""The critical path of one ohana run, from its phase marks.

Runs COMMAND (an `ohana` command line) with OHANA_TRACE_PHASES=1 and reads
the `phase` lines it writes to standard error (see PhaseTrace.swift). For
each stage between two marks it prints the wall seconds, the process CPU
seconds (on one thread they would be the stage's one-thread time), the
seconds during which fewer than all workers ran pieces ("under") and during
which at most one did ("serial": code outside the pool, or one piece alone).

The serial fraction is serial seconds over total CPU seconds: the share of
one-thread time that no number of cores shortens. By Amdahl's law the
speed-up from 2 to N cores is then (s + (1 - s) / 2) / (s + (1 - s) / N).
On 2 cores "serial" is an upper bound: a parallel stage's ragged end, where
one worker finishes its last piece while the other waits, counts too.

    Benchmarks/scaling/critical-path.py [--json OUT] -- ohana dedupe BOOK -o m.vcf --clusters c.csv -q
"""

import argparse
import json
import os
import subprocess
import sys


def parse(stderr: str):
    marks = []
    for line in stderr.splitlines():
        if not line.startswith("phase "):
            continue
        w = line.split()
        fields = {w[i]: w[i + 1] for i in range(2, len(w) - 1, 2)}
        marks.append((w[1], {k: float(v) for k, v in fields.items() if k in ("wall", "cpu", "under", "serial")}, fields))
    return marks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", help="also write the stages and totals as JSON to this file")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        ap.error("give the ohana command after --")
    env = dict(os.environ, OHANA_TRACE_PHASES="1")
    r = subprocess.run(cmd, env=env, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        return r.returncode
    marks = parse(r.stderr)
    if len(marks) < 2:
        sys.stderr.write("no phase marks in the output: is this an ohana command?\n")
        return 1
    rows = []
    prev = {"wall": 0.0, "cpu": 0.0, "under": 0.0, "serial": 0.0}
    for name, f, _ in marks:
        rows.append({"stage": name, **{k: round(f[k] - prev[k], 3) for k in prev}})
        prev = f
    last = marks[-1][1]
    total_cpu = last["cpu"]
    s = last["serial"] / total_cpu if total_cpu > 0 else 0.0

    def speedup(n: int) -> float:
        return (s + (1 - s) / 2) / (s + (1 - s) / n)

    print(f"{'stage':24} {'wall':>8} {'cpu':>8} {'under':>8} {'serial':>8}")
    for row in rows:
        print(f"{row['stage']:24} {row['wall']:8.3f} {row['cpu']:8.3f} {row['under']:8.3f} {row['serial']:8.3f}")
    print(f"{'total':24} {last['wall']:8.3f} {total_cpu:8.3f} {last['under']:8.3f} {last['serial']:8.3f}")
    peak = marks[-1][2].get("busy-peak")
    print(f"serial fraction {s:.4f} of one-thread CPU; busy peak {peak}; "
          f"Amdahl from 2 cores: {speedup(4):.2f}x at 4, {speedup(8):.2f}x at 8, {speedup(16):.2f}x at 16")
    if a.json:
        with open(a.json, "w") as out:
            json.dump({"command": cmd, "stages": rows, "wall": last["wall"], "cpu": total_cpu,
                       "under": last["under"], "serial": last["serial"], "serial_fraction": s,
                       "amdahl_2_to_16": speedup(16)}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
