#!/usr/bin/env bash
# The entity store at scale: a generated address book of N contacts (seed 11,
# dup rate 0.1, the dedupe benchmark's file), its first N - NEW cards as day 1
# and its last NEW as day 2 (shuffled, so some are duplicates of day 1's
# people). Times, side by side in one run:
#   1. `ohana dedupe` of day 1 without a store (today's job, the yardstick);
#   2. the first store run over day 1 (`--store`);
#   3. day 2 linked into that store (`--changed-only`, changes written),
#      from a copy of the store each time, RUNS times;
# and the store's size per contact. Peers: none has incremental dedupe.
#
#   Benchmarks/compare/store/run.sh [N] [NEW] [RUNS] [DIR]
# (defaults 1000000 10000 3 /tmp/ohana-store-bench; OHANA=path to the binary)
set -euo pipefail
n=${1:-1000000}
new=${2:-10000}
runs=${3:-3}
dir=${4:-/tmp/ohana-store-bench}
root=$(cd "$(dirname "$0")/../../.." && pwd)
ohana=${OHANA:-$root/.build/release/ohana}
[ -x "$ohana" ] || (cd "$root" && swift build -c release --product ohana)
mkdir -p "$dir"
cd "$dir"
if [ ! -f "book-$n.vcf" ]; then
  "$ohana" generate --contacts "$n" --seed 11 --dup-rate 0.1 -o "book-$n.vcf" --quiet
fi
if [ ! -f "day1-$n-$new.vcf" ]; then
  awk -v first=$((n - new)) -v d1="day1-$n-$new.vcf" -v d2="day2-$n-$new.vcf" \
    'BEGIN{c=0} { if (c < first) print > d1; else print > d2 } /^END:VCARD/ {c++}' "book-$n.vcf"
fi
t() { /usr/bin/time -f "  wall %e s, peak %M KB" "$@"; }
echo "== ohana dedupe, no store (day 1: $((n - new)) contacts)"
t "$ohana" dedupe "day1-$n-$new.vcf" -o m0.vcf --verbose 2>&1 | tail -3
echo "== first store run (day 1)"
rm -f base.sqlite
t "$ohana" dedupe "day1-$n-$new.vcf" --store base.sqlite -o m1.vcf --verbose 2>&1 | tail -4
for i in $(seq 1 "$runs"); do
  echo "== day 2 ($new contacts) into the store, run $i"
  cp base.sqlite s.sqlite
  sync
  t "$ohana" dedupe "day2-$n-$new.vcf" --store s.sqlite -o m2.vcf --changed-only --changes ch2.ndjson --verbose 2>&1 | tail -4
done
ls -l base.sqlite s.sqlite
