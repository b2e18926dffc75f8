#!/usr/bin/env bash
# Repeats the reader, writer and interning benchmarks one after another for
# MINUTES minutes and prints each figure with its time: on a shared machine
# whose speed drifts from minute to minute, a distribution says more than
# one run.
#
#   FILE=contacts.vcf MINUTES=14 Benchmarks/compare/io/measure-loop.sh > loop.log
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
: "${FILE:?set FILE to a generated .vcf (ohana generate)}"
MINUTES=${MINUTES:-14}
(cd "$HERE" && swift build -c release --product ohana-io-bench >/dev/null)
(cd "$ROOT/Benchmarks" && swift build -c release --product core-bench >/dev/null)
IO="$(cd "$HERE" && swift build -c release --show-bin-path)/ohana-io-bench"
CORE="$(cd "$ROOT/Benchmarks" && swift build -c release --show-bin-path)/core-bench"
TIMES=$(mktemp)
trap 'rm -f "$TIMES"' EXIT
end=$((SECONDS + MINUTES * 60))
while [ $SECONDS -lt $end ]; do
  ts=$(date -u +%H:%M:%S)
  # time: wall, user, system seconds, peak RSS (KB)
  read=$(/usr/bin/time -o "$TIMES" -f "%e %U %S %M" "$IO" read "$FILE" --workers 2 | head -1)
  echo "$ts load=$(cut -d' ' -f1 /proc/loadavg) READ $read time $(cat "$TIMES")"
  echo "$ts WRITE $("$IO" write "$FILE" --workers 2 2>&1 | grep "write vcard4 (memory)")"
  echo "$ts INTERN $("$CORE" intern | grep -o "[0-9.]* ms = [0-9.]* M strings/s")"
done
