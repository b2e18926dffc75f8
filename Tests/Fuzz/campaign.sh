#!/usr/bin/env bash
# A long fuzz campaign of one target: runs Tests/Fuzz/run.sh again and again
# until SECONDS of fuzzing have passed or RUNS executions were made,
# restarting after each finding (each one stays in findings/TARGET/, its log
# in findings/TARGET/run-N.log), and prints the totals.
#
#   Tests/Fuzz/campaign.sh vcard|csv|ndjson|phone SECONDS [RUNS] [libFuzzer flags]
#
# The binary must be built (run.sh once, or OHANA_FUZZ_NO_BUILD unset here
# for the first round only). Executions are libFuzzer's
# stat::number_of_executed_units of each round, added up.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
target=${1:?target}
seconds=${2:?seconds}
runs=${3:-0}
shift 3 2>/dev/null || shift $#
start=$(date +%s)
total=0
round=0
findings=0
while :; do
  left=$((seconds - ($(date +%s) - start)))
  [ "$left" -ge 5 ] || break
  if [ "$runs" -gt 0 ]; then
    [ "$total" -lt "$runs" ] || break
    extra=(-runs=$((runs - total)))
  else
    extra=()
  fi
  round=$((round + 1))
  OHANA_FUZZ_NO_BUILD=1 "$here/run.sh" "$target" "$left" "${extra[@]}" "$@" >/dev/null 2>&1
  status=$?
  log="$here/findings/$target/last-run.log"
  cp "$log" "$here/findings/$target/run-$round.log"
  n=$(grep -a -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  if [ -z "$n" ]; then
    # A crash ends the run before the final stats: take the last status line.
    n=$(grep -a -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  fi
  total=$((total + ${n:-0}))
  if [ "$status" -ne 0 ]; then
    findings=$((findings + 1))
    echo "round $round: finding after ${n:-0} executions: $(grep -a -m1 -E 'FUZZ FINDING|ERROR: (libFuzzer|AddressSanitizer)' "$log")"
  fi
done
cov=$(grep -a -oE 'cov: [0-9]+ ft: [0-9]+' "$here/findings/$target/last-run.log" | tail -1)
echo "campaign $target: $(($(date +%s) - start)) s, $round rounds, $total executions, $findings findings, last $cov"
