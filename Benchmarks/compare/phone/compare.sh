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
# Figures are CPU time (user+sys of the whole process for ohana, which
# includes reading and writing; the harnesses' own loop CPU time for C++
# and Python). Pinned to one core with taskset when available. On a shared
# machine the numbers are noisy: run it with the machine otherwise idle.
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

echo "building ohana (release)..." >&2
(cd "$ROOT" && swift build -c release --product ohana >&2)
OHANA="$ROOT/.build/release/ohana"

echo "building the C++ harness..." >&2
if ! pkg-config --exists protobuf icu-uc || [ ! -e /usr/include/phonenumbers/phonenumberutil.h ]; then
  echo "install libphonenumber-dev first: apt-get install -y libphonenumber-dev" >&2
  exit 1
fi
g++ -O2 -std=c++17 -o "$WORK/cpp_harness" "$HERE/cpp_harness.cc" -lphonenumber \
  $(pkg-config --cflags --libs protobuf icu-uc icu-i18n)

cpu_of() {  # cpu_of OUT ERR cmd... -> prints user+sys seconds of the command
  local out=$1 err=$2
  shift 2
  local t
  t=$( { TIMEFORMAT='%U %S'; time "$@" > "$out" 2> "$err"; } 2>&1 )
  echo "$t" | awk '{ printf "%.3f", $1 + $2 }'
}

echo "running ohana..." >&2
OH_CPU=$(cpu_of "$WORK/ohana.tsv" "$WORK/ohana.err" $PIN "$OHANA" phone < "$INPUT")
echo "running C++ libphonenumber..." >&2
cpu_of "$WORK/cpp.tsv" "$WORK/cpp.err" $PIN "$WORK/cpp_harness" < "$INPUT" > /dev/null
CPP_CPU=$(awk '/^cpp/ { print $4 }' "$WORK/cpp.err")
echo "running Python phonenumbers ($PY_N numbers)..." >&2
cpu_of "$WORK/python.tsv" "$WORK/python.err" $PIN python3 "$HERE/py_harness.py" < "$WORK/input-py.tsv" > /dev/null
PY_CPU=$(awk '/^python/ { print $4 }' "$WORK/python.err")

python3 - "$N" "$PY_N" "$OH_CPU" "$CPP_CPU" "$PY_CPU" "$WORK" <<'PY'
import sys
n, py_n = int(sys.argv[1]), int(sys.argv[2])
oh, cpp, py = float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
work = sys.argv[6]
rates = {"ohana phone": n / oh, "C++ libphonenumber": n / cpp, "Python phonenumbers": py_n / py}
print("%-22s %10s %10s %14s %12s" % ("tool", "numbers", "cpu s", "numbers/s", "us/number"))
for name, cpu, count in (("ohana phone", oh, n), ("C++ libphonenumber", cpp, n), ("Python phonenumbers", py, py_n)):
  print("%-22s %10d %10.3f %14.0f %12.3f" % (name, count, cpu, count / cpu, 1e6 * cpu / count))
print("ohana / C++    = %.1fx" % (rates["ohana phone"] / rates["C++ libphonenumber"]))
print("ohana / Python = %.1fx" % (rates["ohana phone"] / rates["Python phonenumbers"]))

def rows(path, limit):
  with open(path, encoding="utf-8", errors="replace") as f:
    return f.read().split("\n")[:limit]
oh_rows = rows(work + "/ohana.tsv", n)
for name, path, limit in (("Python phonenumbers 9.0.43", "/python.tsv", py_n), ("C++ libphonenumber (own metadata)", "/cpp.tsv", n)):
  other = rows(work + path, limit)
  same = sum(1 for a, b in zip(oh_rows, other) if a == b)
  print("rows identical to %s: %d / %d" % (name, same, min(len(other), limit)))
PY
