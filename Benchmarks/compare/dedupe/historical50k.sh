#!/usr/bin/env bash
# Dedupe Splink's historical persons (historical_figures_with_errors_50k,
# 50,578 records of about 5,000 people, from splink_datasets) with ohana,
# with Splink trained as its own example for this table does
# (splink_h50k.py), and with GoldenMatch given no configuration
# (independent/goldenmatch_table.py); pairwise F1 against the table's
# `cluster` column, wall time and peak memory of each, one after another.
#
# usage: Benchmarks/compare/dedupe/historical50k.sh TABLE.parquet
#   (fetch it once: splink_datasets' historical_figures_with_errors_50k.parquet,
#   moj-analytical-services/splink_datasets on GitHub)
# env:   OHANA=path/to/ohana (default: this repo's .build/release/ohana)
#        WORK=/tmp/ohana-h50k
#        SPLINK_PY=/tmp/ohana-febrl/venv/bin/python (splink 5.0.0, pyarrow)
#        GM_PY=/tmp/ohana-febrl/gm-venv/bin/python (goldenmatch 3.22.0)
#        SKIP_GOLDENMATCH=1 leaves GoldenMatch out (about 90 s on 2 cores)
#
# The CSV ohana and GoldenMatch read is the Parquet table written by
# pyarrow without its `cluster` column (the truth goes to truth.csv).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
F1="$HERE/pairwise_f1.py"
OHANA=${OHANA:-$ROOT/.build/release/ohana}
WORK=${WORK:-/tmp/ohana-h50k}
SPLINK_PY=${SPLINK_PY:-/tmp/ohana-febrl/venv/bin/python}
GM_PY=${GM_PY:-/tmp/ohana-febrl/gm-venv/bin/python}
[ $# -eq 1 ] || { echo "usage: $0 TABLE.parquet" >&2; exit 2; }
TABLE=$1
[ -x "$OHANA" ] || { echo "no ohana binary at $OHANA (swift build -c release --product ohana, or set OHANA)" >&2; exit 2; }
mkdir -p "$WORK"

"$SPLINK_PY" - "$TABLE" "$WORK/table.csv" "$WORK/truth.csv" <<'EOF'
import sys
import pyarrow.csv as pc
import pyarrow.parquet as pq
t = pq.read_table(sys.argv[1])
pc.write_csv(t.drop_columns(["cluster"]), sys.argv[2])
pc.write_csv(t.select(["unique_id", "cluster"]), sys.argv[3])
EOF

timed() {  # timed NAME command...: prints "NAME wall_s peak_MiB"
  local name=$1; shift
  /usr/bin/time -f "$name %e %M" -o "$WORK/$name.time" "$@" >"$WORK/$name.log" 2>&1 || { cat "$WORK/$name.log" >&2; return 1; }
  awk '{printf "%s %.2f s, %d MiB peak\n", $1, $2, $3 / 1024}' "$WORK/$name.time"
}

echo "== ohana ($("$OHANA" --version | head -1))"
timed ohana "$OHANA" dedupe "$WORK/table.csv" --clusters "$WORK/ohana-clusters.csv" -o "$WORK/rows.csv" -q
python3 "$F1" "$WORK/truth.csv" "$WORK/ohana-clusters.csv"
"$OHANA" dedupe "$WORK/table.csv" --truth "$WORK/truth.csv" -o "$WORK/rows2.csv" --verbose 2>&1 | grep -E "^truth: blocking|restates" || true

echo "== Splink, trained as its example for this table does (best threshold marked)"
timed splink "$SPLINK_PY" "$HERE/splink_h50k.py" "$TABLE" "$WORK/splink" "$WORK/truth.csv"
grep -E "^splink" "$WORK/splink.log"

if [ -z "${SKIP_GOLDENMATCH:-}" ]; then
  echo "== GoldenMatch, no configuration"
  timed goldenmatch "$GM_PY" "$HERE/independent/goldenmatch_table.py" "$WORK/table.csv" "$WORK/gm-clusters.csv"
  python3 "$F1" "$WORK/truth.csv" "$WORK/gm-clusters.csv"
fi
