#!/usr/bin/env bash
# Side-by-side sort of the same names file by three programs:
#   icu-floor  C, system ICU: ucol_getSortKey per row + qsort (one thread)
#   duckdb     ORDER BY "full" COLLATE <locale> (all threads)
#   ohana      OhanaText: intern, parallel keys per distinct name, radix sort
# Each prints CPU time (all threads) and wall time of the sort only (reading
# the file is excluded). icu-floor and ohana print a checksum of the sorted
# lines: equal checksums mean identical orders.
#
# Usage: Benchmarks/compare/sort/compare.sh [NAMES.txt] [locale]
#   NAMES.txt defaults to datasets/generated/names-1m.txt, generated on first
#   use by gen_names.py (1,000,000 rows, 640,000 distinct, seed 42).
# Env: RUNS (default 3) repetitions of each program; SKIP_DUCKDB=1;
#      INTERLEAVE=1 runs the three in rounds (floor, DuckDB, ohana; RUNS
#      rounds) instead of each program RUNS times in a row;
#      SORT_BENCH=path/to/ohana-sort-bench uses that build as it is (no build).
# Needs: cc, pkg-config, libicu-dev, python3; `pip install duckdb` for DuckDB.
# Timings are only meaningful on an otherwise idle machine.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
names="${1:-$root/datasets/generated/names-1m.txt}"
locale="${2:-de}"
runs="${RUNS:-3}"
work="${TMPDIR:-/tmp}/ohana-sort-compare"
mkdir -p "$work"

if [[ ! -f "$names" ]]; then
  mkdir -p "$(dirname "$names")"
  python3 "$here/gen_names.py" --rows 1000000 --distinct 640000 --seed 42 "$names"
fi

echo "== building"
cc -O2 -Wall "$here/icu_floor.c" $(pkg-config --cflags --libs icu-i18n icu-uc) -o "$work/icu_floor"
if [[ -n "${SORT_BENCH:-}" ]]; then
  bench=$SORT_BENCH
else
  (cd "$root/Benchmarks" && swift build -c release --product ohana-sort-bench >/dev/null)
  bench="$(cd "$root/Benchmarks" && swift build -c release --product ohana-sort-bench --show-bin-path)/ohana-sort-bench"
fi

echo "== machine: $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg), ICU $(pkg-config --modversion icu-uc)"
echo "== file: $names ($(wc -l <"$names") rows), locale: $locale"
duckdb=0
if [[ "${SKIP_DUCKDB:-0}" != 1 ]]; then
  if python3 -c 'import duckdb' 2>/dev/null; then
    duckdb=1
  else
    echo "duckdb: not installed (pip install duckdb); skipped"
  fi
fi
if [[ "${INTERLEAVE:-0}" == 1 ]]; then
  for ((i = 1; i <= runs; i++)); do
    echo "== round $i"
    "$work/icu_floor" "$names" "$locale"
    if [[ $duckdb == 1 ]]; then python3 "$here/duckdb_sort.py" "$names" "$locale"; fi
    "$bench" "$names" --locale "$locale" --repeat 1
  done
else
  for ((i = 1; i <= runs; i++)); do "$work/icu_floor" "$names" "$locale"; done
  if [[ $duckdb == 1 ]]; then
    for ((i = 1; i <= runs; i++)); do python3 "$here/duckdb_sort.py" "$names" "$locale"; done
  fi
  "$bench" "$names" --locale "$locale" --repeat "$runs"
fi
"$bench" "$names" --locale "$locale" --sequential
