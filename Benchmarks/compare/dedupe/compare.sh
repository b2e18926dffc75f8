#!/usr/bin/env bash
# Dedupe side by side: ohana dedupe vs Splink (DuckDB backend) on the same
# generated contacts, scored against the generator's truth.
#
# usage: Benchmarks/compare/dedupe/compare.sh [CONTACTS] [DUP_RATE] [SEED]
#   defaults: 100000 0.2 7; issue 6's scale run: 1000000 0.1 11
# env:   WORK=/tmp/ohana-dedupe-compare   SPLINK_THRESHOLDS=0.99,0.9999,0.999999 SPLINK_MEMORY_LIMIT=6GB
#        SKIP_SPLINK=1 to run ohana only
#        STYLE=hand-keyed for `ohana generate --style hand-keyed` (customer
#        records, mostly without phones and e-mails; default address-book)
#        OHANA=path/to/ohana (default: the repo's release build)
#        VENV=path of a virtual environment with splink and duckdb (default
#        $WORK/venv, made with pip when missing)
#
# Prints pairwise precision/recall/F1, wall time and peak memory
# (/usr/bin/time -v) of each tool. Timings on a shared machine are noisy.
set -euo pipefail
N=${1:-100000}
DUP=${2:-0.2}
SEED=${3:-7}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
WORK=${WORK:-/tmp/ohana-dedupe-compare}
THRESHOLDS=${SPLINK_THRESHOLDS:-0.99,0.9999,0.999999}
mkdir -p "$WORK"

STYLE=${STYLE:-address-book}
if [ -z "${OHANA:-}" ]; then
  (cd "$ROOT" && swift build -c release --product ohana >/dev/null)
  OHANA="$ROOT/.build/release/ohana"
fi

TAG="$N-$DUP-$SEED"
[ "$STYLE" = address-book ] || TAG="$TAG-$STYLE"
DATA="$WORK/contacts-$TAG.vcf"
TRUTH="$WORK/truth-$TAG.csv"
if [ ! -f "$DATA" ]; then
  "$OHANA" generate --contacts "$N" --seed "$SEED" --dup-rate "$DUP" --style "$STYLE" -o "$DATA" --truth "$TRUTH"
fi

measure() {  # measure LOG -- command...: wall seconds and peak RSS (MiB) from /usr/bin/time -v
  local log=$1; shift; shift
  /usr/bin/time -v "$@" 2>"$log" >/dev/null || { cat "$log" >&2; return 1; }
  local wall rss
  wall=$(grep "Elapsed (wall clock)" "$log" | awk '{print $NF}')
  rss=$(grep "Maximum resident set size" "$log" | awk '{print int($NF/1024)}')
  echo "$wall $rss"
}

echo "== ohana dedupe ($N contacts, dup rate $DUP, seed $SEED, style $STYLE)"
read -r O_WALL O_RSS < <(measure "$WORK/ohana.time" -- "$OHANA" dedupe "$DATA" -o "$WORK/merged.vcf" \
  --clusters "$WORK/ohana-clusters.csv" --verbose)
grep -E "^(deduped|stages)" "$WORK/ohana.time" || true
O_F1=$(python3 "$HERE/pairwise_f1.py" "$TRUTH" "$WORK/ohana-clusters.csv")
echo "$O_F1"

if [ "${SKIP_SPLINK:-0}" != "1" ]; then
  VENV=${VENV:-$WORK/venv}
  if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q splink duckdb
  fi
  "$OHANA" convert "$DATA" -o "$WORK/contacts.ndjson" -q
  python3 "$HERE/export_flat.py" "$WORK/contacts.ndjson" "$WORK/flat.csv"
  echo "== Splink $("$VENV/bin/python" -c 'import splink; print(splink.__version__)') (DuckDB), thresholds $THRESHOLDS"
  read -r S_WALL S_RSS < <(measure "$WORK/splink.time" -- "$VENV/bin/python" "$HERE/splink_dedupe.py" \
    "$WORK/flat.csv" "$WORK/splink" "$THRESHOLDS")
  grep splink_seconds "$WORK/splink.time" || true
  BEST=""
  for t in ${THRESHOLDS//,/ }; do
    R=$(python3 "$HERE/pairwise_f1.py" "$TRUTH" "$WORK/splink-$t.csv")
    echo "threshold $t: $R"
    F=$(echo "$R" | sed -E 's/.*f1=([0-9.]+).*/\1/')
    if [ -z "$BEST" ] || awk "BEGIN{exit !($F > ${BEST%% *})}"; then BEST="$F $t"; fi
  done
fi

echo
printf "%-8s %-10s %-12s %-10s\n" tool f1 wall peakMiB
printf "%-8s %-10s %-12s %-10s\n" ohana "$(echo "$O_F1" | sed -E 's/.*f1=([0-9.]+).*/\1/')" "$O_WALL" "$O_RSS"
if [ -n "${S_WALL:-}" ]; then
  printf "%-8s %-10s %-12s %-10s (best threshold %s; Splink time excludes the CSV export)\n" \
    splink "${BEST%% *}" "$S_WALL" "$S_RSS" "${BEST##* }"
fi
