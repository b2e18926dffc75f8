#!/usr/bin/env bash
# Builds one fuzz target (under the shared build lock) and runs it for a
# fixed time. Exits non-zero on any finding (crash, failed check, hang over
# 10 s, sanitizer report, over 4 GiB) and keeps the input that caused it in
# findings/TARGET/.
#
#   Tests/Fuzz/run.sh vcard|csv|ndjson|phone SECONDS [extra libFuzzer flags]
#
# Seeds come from make-seeds.sh (run here when corpus/TARGET is missing);
# new inputs libFuzzer finds go to work/TARGET (kept between runs). All
# three folders are generated and git-ignored. OHANA_FUZZ_CHECKS (see
# README.md) turns reader checks off for long campaigns.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

if [ $# -lt 2 ]; then
  echo "usage: $0 vcard|csv|ndjson|phone SECONDS [libFuzzer flags]" >&2
  exit 64
fi
target=${1#fuzz-}
seconds=$2
shift 2
case "$target" in
  vcard | csv | ndjson) max_len=16384 ;;
  phone) max_len=96 ;;
  *) echo "unknown target $target (vcard, csv, ndjson, phone)" >&2; exit 64 ;;
esac

# OHANA_FUZZ_NO_BUILD=1 runs the binary already built (e.g. while the lock is busy).
if [ -z "${OHANA_FUZZ_NO_BUILD:-}" ]; then
  build_start=$(date +%s)
  flock /tmp/ohana-build.lock swift build -c release --product "fuzz-$target" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
  echo "fuzz build: $(($(date +%s) - build_start)) s (including the wait for the lock)"
fi
bin=.build/release/fuzz-$target

[ -d "corpus/$target" ] || ./make-seeds.sh
mkdir -p "work/$target" "findings/$target"
log="findings/$target/last-run.log"

status=0
# Swift's own backtracer would run after libFuzzer's handler; not needed.
export SWIFT_BACKTRACE=enable=no
# The vCard target also reads the real corpus in place (never copied).
seeds=("corpus/$target")
shared="$here/../../../shared/corpus/vcard"
if [ "$target" = vcard ] && [ -d "$shared" ]; then seeds+=("$shared"); fi
nice -n 19 "$bin" "work/$target" "${seeds[@]}" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len="$max_len" \
  -dict="dicts/$target.dict" -print_final_stats=1 -artifact_prefix="findings/$target/" "$@" \
  >"$log" 2>&1 || status=$?

grep -a -E '^#[0-9]+ +(INITED|DONE)' "$log" | tail -2 || true
grep -a -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$log" || true
if [ "$status" -ne 0 ]; then
  echo "FUZZ $target: FINDING (libFuzzer exit $status); log $here/$log" >&2
  grep -a -E 'FUZZ FINDING|ERROR: (libFuzzer|AddressSanitizer)|Fatal error|artifact_prefix|Test unit written' "$log" | head -20 >&2 || true
  exit 1
fi
units=$(grep -a -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
echo "FUZZ $target: no finding (${units:-?} executions, at most $seconds s)"
