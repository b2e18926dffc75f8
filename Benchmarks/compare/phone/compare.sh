#!/usr/bin/env bash
# Side-by-side throughput of phone-number engines on the same input:
#   (a) `ohana phone` (release build),
#   (b) Google's C++ libphonenumber (apt: libphonenumber-dev) through cpp_harness.cc,
#   (c) Python phonenumbers 9.0.43 through py_harness.py (enable_pattern_cache()).
# Each does parse + E164 + INTERNATIONAL + NATIONAL + RFC3966 + validity + type
# per number, single thread, and writes the same TSV columns.
#
# Usage: Benchmarks/compare/phone/compare.sh            (1,000,000 numbers)
#        N=200000 PY_N=100000 Benchmarks/compare/phone/compare.sh
# Figures are CPU time of the whole process (user+sys: reading, parsing,
# formatting, writing) for every tool; the C++ and Python harnesses also
# report the CPU time of their parse/format loop alone (reading and the
# final write excluded), shown as "loop". ohana runs RUNS times (default 3)
# and the fastest run counts; the others run once. Everything is pinned to
# one core with taskset when available. On a shared machine the numbers are
# noisy: run it with the machine otherwise idle.
#
# Env: OHANA=path/to/ohana uses that release binary (no build); SKIP_CPP=1
# leaves the C++ library out (its line then says "not run"); WORK is the
# scratch folder (default /tmp/ohana-phone-compare).
set -euo pipefail

N=${N:-1000000}
PY_N=${PY_N:-$N}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
WORK=${WORK:-/tmp/ohana-phone-compare}
mkdir -p "$WORK"

PIN=""
if command -v taskset >/dev/null 2>&1; then PIN="taskset -c 0"; fi

INPUT="$WORK/input-$N.tsv"
if [ ! -s "$INPUT" ]; then
  echo "generating $N numbers..." >&2
  python3 "$ROOT/Scripts/phone/make_fixture.py" --count "$N" --inputs-only --seed 1 --out "$INPUT"
fi
head -n "$PY_N" "$INPUT" > "$WORK/input-py.tsv"

if [ -z "${OHANA:-}" ]; then
  echo "building ohana (release)..." >&2
  (cd "$ROOT" && swift build -c release --product ohana >&2)
  OHANA="$ROOT/.build/release/ohana"
fi

SKIP_CPP=${SKIP_CPP:-0}
if [ "$SKIP_CPP" != 1 ]; then
  echo "building the C++ harness..." >&2
  if ! pkg-config --exists protobuf icu-uc || [ ! -e /usr/include/phonenumbers/phonenumberutil.h ]; then
    echo "install libphonenumber-dev first: apt-get install -y libphonenumber-dev (or SKIP_CPP=1)" >&2
    exit 1
  fi
  g++ -O2 -std=c++17 -o "$WORK/cpp_harness" "$HERE/cpp_harness.cc" -lphonenumber \
    $(pkg-config --cflags --libs protobuf icu-uc icu-i18n)
  echo "C++ libphonenumber version: $(dpkg-query -W -f '${Version}' libphonenumber-dev 2>/dev/null || echo unknown)"
fi
echo "Python phonenumbers version: $(python3 -c 'import phonenumbers; print(phonenumbers.__version__)')"

cpu_of() {  # cpu_of OUT ERR cmd... -> prints user+sys seconds of the command
  local out=$1 err=$2
  shift 2
  local t
  t=$( { TIMEFORMAT='%U %S'; time "$@" > "$out" 2> "$err"; } 2>&1 )
  echo "$t" | awk '{ printf "%.3f", $1 + $2 }'
}

RUNS=${RUNS:-3}
echo "running ohana ($RUNS runs)..." >&2
OH_CPU=""
for _ in $(seq "$RUNS"); do
  t=$(cpu_of "$WORK/ohana.tsv" "$WORK/ohana.err" $PIN "$OHANA" phone < "$INPUT")
  if [ -z "$OH_CPU" ] || awk -v a="$t" -v b="$OH_CPU" 'BEGIN { exit !(a < b) }'; then OH_CPU=$t; fi
done
CPP_CPU=0 CPP_LOOP=0
if [ "$SKIP_CPP" != 1 ]; then
  echo "running C++ libphonenumber..." >&2
  CPP_CPU=$(cpu_of "$WORK/cpp.tsv" "$WORK/cpp.err" $PIN "$WORK/cpp_harness" < "$INPUT")
  CPP_LOOP=$(awk '/^cpp/ { print $4 }' "$WORK/cpp.err")
fi
echo "running Python phonenumbers ($PY_N numbers)..." >&2
PY_CPU=$(cpu_of "$WORK/python.tsv" "$WORK/python.err" $PIN python3 "$HERE/py_harness.py" < "$WORK/input-py.tsv")
PY_LOOP=$(awk '/^python/ { print $4 }' "$WORK/python.err")

python3 - "$N" "$PY_N" "$OH_CPU" "$CPP_CPU" "$PY_CPU" "$WORK" "$CPP_LOOP" "$PY_LOOP" "$SKIP_CPP" <<'PY'
import sys
n, py_n = int(sys.argv[1]), int(sys.argv[2])
oh, cpp, py = float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
work = sys.argv[6]
cpp_loop, py_loop = float(sys.argv[7]), float(sys.argv[8])
skip_cpp = sys.argv[9] == "1"
print("%-22s %10s %10s %14s %12s %16s" % ("tool", "numbers", "cpu s", "numbers/s", "us/number", "loop numbers/s"))
rows = (("ohana phone", oh, n, None), ("C++ libphonenumber", cpp, n, cpp_loop), ("Python phonenumbers", py, py_n, py_loop))
for name, cpu, count, loop in rows:
  if skip_cpp and name.startswith("C++"):
    print("%-22s not run (SKIP_CPP=1)" % name)
    continue
  print("%-22s %10d %10.3f %14.0f %12.3f %16s" % (
    name, count, cpu, count / cpu, 1e6 * cpu / count, "%.0f" % (count / loop) if loop else "-"))
if not skip_cpp:
  print("ohana / C++    = %.1fx (whole process; %.1fx against the C++ loop alone)" % ((n / oh) / (n / cpp), (n / oh) / (n / cpp_loop)))
print("ohana / Python = %.1fx (whole process; %.1fx against the Python loop alone)" % ((n / oh) / (py_n / py), (n / oh) / (py_n / py_loop)))

def rows(path, limit):
  with open(path, encoding="utf-8", errors="replace") as f:
    return f.read().split("\n")[:limit]
oh_rows = rows(work + "/ohana.tsv", n)
for name, path, limit in (("Python phonenumbers 9.0.43", "/python.tsv", py_n), ("C++ libphonenumber (own metadata)", "/cpp.tsv", n)):
  if skip_cpp and path == "/cpp.tsv":
    continue
  other = rows(work + path, limit)
  same = sum(1 for a, b in zip(oh_rows, other) if a == b)
  print("rows identical to %s: %d / %d" % (name, same, min(len(other), limit)))
PY
