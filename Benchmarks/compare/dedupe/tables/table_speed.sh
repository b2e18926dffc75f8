#!/usr/bin/env bash
# Speed of the table route (issue 44), side by side in one run, 2 cores:
#   read: `ohana stats TABLE.csv` (the whole table read, mapped, into the
#         store) against DuckDB's read_csv of the same file into a table;
#   dedupe: `ohana dedupe TABLE.csv -o rows.csv` (the user's rows back)
#         against `ohana dedupe TABLE.vcf -o merged.vcf` (the vCard route,
#         the same contacts: TABLE.csv converted once by `ohana convert`).
#   parquet (with PARTS containing parquet): `ohana stats TABLE.parquet`
#         (Arrow reads it, the table route maps it) against pyarrow's
#         read_table of the same file; and dedupe Parquet in, Parquet out
#         against CSV in, CSV out. TABLE.parquet is TABLE.csv as pyarrow's
#         read_csv types it. OHANA must be built with --traits Parquet.
# The table: 1M records of Benchmarks/quality/corrupt.py's crm profile.
# usage: Benchmarks/compare/dedupe/tables/table_speed.sh
# env:   OHANA (default .build/release/ohana), WORK=/tmp/ohana-table-speed,
#        VENV=$WORK/venv (duckdb, pyarrow, Faker, nicknames from PyPI), RUNS=3,
#        PARTS="read dedupe parquet" (which comparisons to run)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
OHANA=${OHANA:-$ROOT/.build/release/ohana}
WORK=${WORK:-/tmp/ohana-table-speed}
VENV=${VENV:-$WORK/venv}
RUNS=${RUNS:-3}
PARTS=${PARTS:-read dedupe parquet}
mkdir -p "$WORK"
[ -x "$VENV/bin/python" ] || { python3 -m venv "$VENV"; "$VENV/bin/pip" install -q duckdb pyarrow -r "$ROOT/Benchmarks/quality/requirements.txt"; }
T="$WORK/crm-1m.csv"
[ -f "$T" ] || "$VENV/bin/python" "$ROOT/Benchmarks/quality/corrupt.py" --records 1000000 --seed 1 --profile crm --locale mixed --out "$T" --truth "$WORK/crm-1m-truth.csv"
[ -f "$WORK/crm-1m.vcf" ] || "$OHANA" convert "$T" -o "$WORK/crm-1m.vcf" -q
cat > "$WORK/duck.py" <<PY
import duckdb, sys
con = duckdb.connect()
con.execute("SET threads TO 2")
con.execute("CREATE TABLE t AS SELECT * FROM read_csv('$T')")
print(con.execute("SELECT count(*) FROM t").fetchone()[0])
PY
if [[ " $PARTS " == *" read "* ]]; then
  echo "== read: ohana stats (A) vs DuckDB read_csv (B)"
  farm-bench -n "$RUNS" --timeout 600 --vs "$VENV/bin/python $WORK/duck.py" -- "$OHANA" stats "$T" -q
fi
if [[ " $PARTS " == *" dedupe "* ]]; then
  echo "== dedupe: table in, rows out (A) vs the vCard route (B)"
  farm-bench -n "$RUNS" --timeout 900 --vs "$OHANA dedupe $WORK/crm-1m.vcf -o $WORK/merged.vcf -q" -- "$OHANA" dedupe "$T" -o "$WORK/rows.csv" -q
fi
if [[ " $PARTS " == *" parquet "* ]]; then
  P="$WORK/crm-1m.parquet"
  "$VENV/bin/python" -c "import pyarrow" 2>/dev/null || "$VENV/bin/pip" install -q pyarrow
  [ -f "$P" ] || "$VENV/bin/python" -c "import pyarrow.csv as c, pyarrow.parquet as q; q.write_table(c.read_csv('$T'), '$P')"
  cat > "$WORK/pq.py" <<PY
import pyarrow.parquet as pq
print(pq.read_table('$P').num_rows)
PY
  echo "== parquet read: ohana stats (A) vs pyarrow read_table (B)"
  farm-bench -n "$RUNS" --timeout 600 --vs "$VENV/bin/python $WORK/pq.py" -- "$OHANA" stats "$P" -q
  echo "== parquet dedupe: Parquet in and out (A) vs CSV in and out (B)"
  farm-bench -n "$RUNS" --timeout 900 --vs "$OHANA dedupe $T -o $WORK/rows.csv -q" -- "$OHANA" dedupe "$P" -o "$WORK/rows.parquet" -q
fi
