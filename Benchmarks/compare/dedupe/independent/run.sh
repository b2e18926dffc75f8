#!/usr/bin/env bash
# Dedupe quality on the independent corruption generator's tables
# (Benchmarks/quality/corrupt.py): `ohana dedupe` side by side with Splink
# (DuckDB, trained as its tutorial teaches: splink_table.py) and GoldenMatch
# (zero-config: goldenmatch_table.py).
#
# usage: Benchmarks/compare/dedupe/independent/run.sh [SETS...]
#   sets: census10k web10k crm10k (the default), census100k web100k crm100k, crm1m
# env:   OHANA=path/to/ohana (default: this repo's .build/release/ohana; not built here)
#        WORK=/tmp/ohana-indep (tables cached in $WORK/data, outputs in $WORK/<set>)
#        SPLINK_PY=/tmp/ohana-febrl/venv/bin/python (splink 5.0.0, duckdb, pandas)
#        GM_PY=/tmp/ohana-febrl/gm-venv/bin/python (goldenmatch 3.22.0)
#        GEN_PY=/tmp/qv/bin/python (Faker and nicknames, for corrupt.py)
#        SKIP_GOLDENMATCH=1 leaves GoldenMatch out (it is always left out above
#        100k records, i.e. on crm1m, to keep the run's time bounded)
#        SPLINK_THRESHOLDS=0.2,0.5,0.9,0.99,0.999
#
# Per set: the table and its truth are generated once (cached), then
#   $OHANA dedupe TABLE.csv --clusters CL.csv -o rows.csv
# under /usr/bin/time -v (wall, peak RSS), scored with ../pairwise_f1.py; an
# untimed second run with --truth for ohana's blocking recall and pairs per
# record; Splink at every threshold (the best F1 marked: picked with the
# truth, so it is an upper bound, not a setting a user would know); then
# GoldenMatch. Ends with one markdown table per set. Timings on a shared
# machine are noisy.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
F1="$HERE/../pairwise_f1.py"
GEN="$ROOT/Benchmarks/quality/corrupt.py"
OHANA=${OHANA:-$ROOT/.build/release/ohana}
WORK=${WORK:-/tmp/ohana-indep}
SPLINK_PY=${SPLINK_PY:-/tmp/ohana-febrl/venv/bin/python}
GM_PY=${GM_PY:-/tmp/ohana-febrl/gm-venv/bin/python}
GEN_PY=${GEN_PY:-/tmp/qv/bin/python}
GM_MAX_RECORDS=100000

[ -x "$OHANA" ] || { echo "no ohana binary at $OHANA (swift build -c release --product ohana, or set OHANA)" >&2; exit 2; }
SETS=("$@")
[ ${#SETS[@]} -gt 0 ] || SETS=(census10k web10k crm10k)

gen_args() {  # gen_args SET: prints "PROFILE RECORDS SEED"
  case "$1" in
    census10k) echo "census 10000 1" ;;   web10k) echo "web 10000 1" ;;   crm10k) echo "crm 10000 1" ;;
    census100k) echo "census 100000 2" ;; web100k) echo "web 100000 2" ;; crm100k) echo "crm 100000 2" ;;
    crm1m) echo "crm 1000000 3" ;;
    *) return 1 ;;
  esac
}
for SET in "${SETS[@]}"; do
  gen_args "$SET" >/dev/null || { echo "unknown set: $SET (census10k web10k crm10k census100k web100k crm100k crm1m)" >&2; exit 2; }
done

measure() {  # measure LOG command...: prints "wall_seconds peak_MiB"; the command's stdout in LOG.out, stderr + time in LOG
  local log=$1; shift
  /usr/bin/time -v "$@" 2>"$log" >"$log.out" || { cat "$log" >&2; return 1; }
  local wall rss
  wall=$(grep "Elapsed (wall clock)" "$log" | awk '{n=split($NF,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; printf "%.2f", s}')
  rss=$(grep "Maximum resident set size" "$log" | awk '{print int($NF/1024)}')
  echo "$wall $rss"
}
field() { echo "$2" | sed -E "s/.*$1=([0-9.]+).*/\1/"; }  # field NAME "k=v ..." -> v

mkdir -p "$WORK/data"
ROWS="$WORK/results.tsv"   # set, tool, precision, recall, f1, seconds, peak MiB
NOTES="$WORK/notes.tsv"    # set, note
: >"$ROWS"
: >"$NOTES"
echo "ohana: $OHANA ($("$OHANA" --version 2>/dev/null | head -1 || echo '?'))"
echo "splink: $("$SPLINK_PY" -c 'import splink, duckdb; print(splink.__version__, "duckdb", duckdb.__version__)')"
if [ "${SKIP_GOLDENMATCH:-0}" != "1" ]; then
  echo "goldenmatch: $("$GM_PY" -c 'import importlib.metadata as m; print(m.version("goldenmatch"))')"
fi

for SET in "${SETS[@]}"; do
  read -r PROFILE RECORDS SEED < <(gen_args "$SET")
  TABLE="$WORK/data/$SET.csv" TRUTH="$WORK/data/$SET-truth.csv"
  if [ ! -s "$TABLE" ] || [ ! -s "$TRUTH" ]; then
    echo "generating $SET: corrupt.py --records $RECORDS --seed $SEED --locale mixed --profile $PROFILE"
    "$GEN_PY" "$GEN" --records "$RECORDS" --seed "$SEED" --locale mixed --profile "$PROFILE" \
      --out "$TABLE.tmp" --truth "$TRUTH.tmp"
    mv "$TABLE.tmp" "$TABLE"
    mv "$TRUTH.tmp" "$TRUTH"
  fi
  D="$WORK/$SET"
  mkdir -p "$D"
  echo
  echo "== $SET: $RECORDS records, profile $PROFILE, seed $SEED"

  echo "-- ohana dedupe"
  read -r O_WALL O_RSS < <(measure "$D/ohana.time" "$OHANA" dedupe "$TABLE" --clusters "$D/ohana-clusters.csv" \
    -o "$D/ohana-rows.csv")
  grep -E "^(deduped|warning|error|.*columns mapped)" "$D/ohana.time" || true
  # The clusters file names a row by the table's id column (detected as the
  # id role); a row without one is row-N (1-based). Map row-N to the id.
  if tail -n +2 "$D/ohana-clusters.csv" | cut -d, -f1 | grep -q '^row-'; then
    echo "(clusters name rows row-N: mapped to the table's first column)"
    python3 - "$TABLE" "$D/ohana-clusters.csv" <<'EOF'
import csv, sys
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    r = csv.reader(f); next(r); ids = [row[0] for row in r]
with open(sys.argv[2], newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f))
for row in rows[1:]:
    if row[0].startswith("row-"):
        row[0] = ids[int(row[0][4:]) - 1]
with open(sys.argv[2], "w", newline="", encoding="utf-8") as f:
    csv.writer(f).writerows(rows)
EOF
  fi
  O_F1=$(python3 "$F1" "$TRUTH" "$D/ohana-clusters.csv")
  echo "$O_F1"
  printf "%s\tohana\t%s\t%s\t%s\t%s\t%s\n" "$SET" "$(field precision "$O_F1")" "$(field recall "$O_F1")" \
    "$(field f1 "$O_F1")" "$O_WALL" "$O_RSS" >>"$ROWS"
  printf "%s\ttrue pairs: %s\n" "$SET" "$(field true_pairs "$O_F1")" >>"$NOTES"
  # Untimed diagnostic pass: blocking recall and pairs compared per record.
  if "$OHANA" dedupe "$TABLE" --truth "$TRUTH" -o "$D/ohana-diag-rows.csv" 2>"$D/ohana-diag.err"; then
    grep -E "^truth:" "$D/ohana-diag.err" || true
    BR=$(grep -oE "blocking recall [0-9.]+" "$D/ohana-diag.err" | awk '{print $3}' || true)
    PPR=$(grep -oE "[0-9.]+ pairs compared per record" "$D/ohana-diag.err" | awk '{print $1}' || true)
    printf "%s\tohana blocking recall %s, %s pairs compared per record (ohana --truth)\n" \
      "$SET" "${BR:-?}" "${PPR:-?}" >>"$NOTES"
  else
    echo "(ohana --truth pass failed: see $D/ohana-diag.err)"
  fi

  echo "-- Splink (DuckDB), splink_table.py $PROFILE"
  read -r S_WALL S_RSS < <(measure "$D/splink.time" "$SPLINK_PY" "$HERE/splink_table.py" "$PROFILE" "$TABLE" \
    "$D/splink" "$TRUTH")
  cat "$D/splink.time.out"
  S_SEC=$(field splink_seconds "$(grep splink_seconds "$D/splink.time.out")")
  grep "^splink threshold" "$D/splink.time.out" | while read -r _ _ T REST; do
    T=${T%:}
    MARK=""
    case "$REST" in *"best F1"*) MARK=" (best)" ;; esac
    printf "%s\tsplink p>=%s%s\t%s\t%s\t%s\t%s\t%s\n" "$SET" "$T" "$MARK" "$(field precision "$REST")" \
      "$(field recall "$REST")" "$(field f1 "$REST")" "$S_SEC" "$S_RSS" >>"$ROWS"
  done

  if [ "${SKIP_GOLDENMATCH:-0}" = "1" ]; then
    echo "-- GoldenMatch skipped (SKIP_GOLDENMATCH=1)"
  elif [ "$RECORDS" -gt "$GM_MAX_RECORDS" ]; then
    echo "-- GoldenMatch skipped: $RECORDS records is above $GM_MAX_RECORDS"
    printf "%s\tGoldenMatch not run above %s records (its zero-config run is too slow)\n" "$SET" "$GM_MAX_RECORDS" >>"$NOTES"
  else
    echo "-- GoldenMatch (zero-config), goldenmatch_table.py"
    read -r G_WALL G_RSS < <(measure "$D/gm.time" "$GM_PY" "$HERE/goldenmatch_table.py" "$TABLE" "$D/goldenmatch.csv")
    tail -2 "$D/gm.time.out"
    G_F1=$(python3 "$F1" "$TRUTH" "$D/goldenmatch.csv")
    echo "$G_F1"
    G_SEC=$(field goldenmatch_seconds "$(grep goldenmatch_seconds "$D/gm.time.out")")
    printf "%s\tgoldenmatch\t%s\t%s\t%s\t%s\t%s\n" "$SET" "$(field precision "$G_F1")" "$(field recall "$G_F1")" \
      "$(field f1 "$G_F1")" "$G_SEC" "$G_RSS" >>"$ROWS"
  fi
done

echo
echo "seconds: ohana = the whole process, wall (read, dedupe, write); splink = in-process read + data preparation"
echo "+ training + prediction + clustering at match probability 0.5 (the same number on each of its rows);"
echo "goldenmatch = the gm.dedupe call. Python start-up is excluded for both. peak MiB: /usr/bin/time -v, whole process."
echo "Splink's (best) row is the threshold with the best F1, chosen with the truth: an upper bound."
for SET in "${SETS[@]}"; do
  echo
  echo "### $SET"
  echo
  grep -P "^$SET\t" "$NOTES" | cut -f2 | sed 's/^/- /'
  echo
  echo "| tool | precision | recall | F1 | seconds | peak MiB |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  grep -P "^$SET\t" "$ROWS" | while IFS=$'\t' read -r _ tool p r f s m; do
    echo "| $tool | $p | $r | $f | $s | $m |"
  done
done
