#!/usr/bin/env bash
# Speed of the table route (issue 44), side by side in one run, 2 cores:
#   read: `ohana stats TABLE.csv` (the whole table read, mapped, into the
#         store) against DuckDB's read_csv of the same file into a table;
#   dedupe: `ohana dedupe TABLE.csv -o rows.csv` (the user's rows back)
#         against `ohana dedupe TABLE.vcf -o merged.vcf` (the vCard route,
#         the same contacts: TABLE.csv converted once by `ohana convert`).
# The table: 1M records of Benchmarks/quality/corrupt.py's crm profile.
# usage: Benchmarks/compare/dedupe/tables/table_speed.sh
# env:   OHANA (default .build/release/ohana), WORK=/tmp/ohana-table-speed,
#        VENV=$WORK/venv (duckdb, Faker, nicknames from PyPI), RUNS=3
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
OHANA=${OHANA:-$ROOT/.build/release/ohana}
WORK=${WORK:-/tmp/ohana-table-speed}
VENV=${VENV:-$WORK/venv}
RUNS=${RUNS:-3}
mkdir -p "$WORK"
[ -x "$VENV/bin/python" ] || { python3 -m venv "$VENV"; "$VENV/bin/pip" install -q duckdb -r "$ROOT/Benchmarks/quality/requirements.txt"; }
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
echo "== read: ohana stats (A) vs DuckDB read_csv (B)"
farm-bench -n "$RUNS" --timeout 600 --vs "$VENV/bin/python $WORK/duck.py" -- "$OHANA" stats "$T" -q
echo "== dedupe: table in, rows out (A) vs the vCard route (B)"
farm-bench -n "$RUNS" --timeout 900 --vs "$OHANA dedupe $WORK/crm-1m.vcf -o $WORK/merged.vcf -q" -- "$OHANA" dedupe "$T" -o "$WORK/rows.csv" -q
