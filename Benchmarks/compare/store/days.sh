#!/usr/bin/env bash
# The entity store day after day: a generated address book of
# N + DAYS * NEW contacts (seed 11, dup rate 0.1); its first N cards are day 1
# (the first store run), then DAYS batches of NEW cards each are linked one
# after the other into the same store (`--changed-only`, changes written),
# as a daily job would. Prints each day's wall time, CPU, peak memory and
# what `--verbose` says of the logs (the cluster log's rows, whether it was
# folded) and the commit's time.
#
# With OLD set to another ohana binary, the same days run through a store of
# its own, alternating day by day with this one (so that both see the same
# minutes of the machine), and each day's outputs are compared.
#
#   Benchmarks/compare/store/days.sh [N] [NEW] [DAYS] [DIR]
# (defaults 1000000 10000 45 /tmp/ohana-store-days; OHANA=path to the binary,
# OLD=path to a binary to compare with)
set -euo pipefail
n=${1:-1000000}
new=${2:-10000}
days=${3:-45}
dir=${4:-/tmp/ohana-store-days}
root=$(cd "$(dirname "$0")/../../.." && pwd)
ohana=${OHANA:-$root/.build/release/ohana}
[ -x "$ohana" ] || (cd "$root" && swift build -c release --product ohana)
mkdir -p "$dir"
cd "$dir"
total=$((n + days * new))
if [ ! -f "book-$total.vcf" ]; then
  "$ohana" generate --contacts "$total" --seed 11 --dup-rate 0.1 -o "book-$total.vcf" --quiet
fi
if [ ! -f "day-$n-$new-01.vcf" ]; then
  awk -v first="$n" -v per="$new" -v stem="day-$n-$new-" \
    'BEGIN{c=0} { d = c < first ? 1 : int((c - first) / per) + 2; print > sprintf("%s%02d.vcf", stem, d) } /^END:VCARD/ {c++}' \
    "book-$total.vcf"
fi
versions="new"
[ -n "${OLD:-}" ] && versions="old new"
bin() { if [ "$1" = old ]; then echo "$OLD"; else echo "$ohana"; fi; }
for v in $versions; do
  rm -f "store-$v.sqlite"
  /usr/bin/time -f "day 01 $v: wall %e s, peak %M KB" "$(bin $v)" dedupe "day-$n-$new-01.vcf" --store "store-$v.sqlite" -o "m-$v.vcf" -q
done
for d in $(seq -w 2 $((days + 1))); do
  for v in $versions; do
    sync
    /usr/bin/time -o time.txt -f "%e s, user %U s, sys %S s, peak %M KB" "$(bin $v)" dedupe "day-$n-$new-$d.vcf" \
      --store "store-$v.sqlite" -o "m-$v.vcf" --changed-only --changes "ch-$v.ndjson" --verbose 2> verbose.txt
    logs=$(grep -o "cluster log: [^(]*\|key log: folded\|commit [0-9.]* s" verbose.txt | tr '\n' ' ' || true)
    echo "day $d $v: wall $(cat time.txt); $logs"
  done
  if [ -n "${OLD:-}" ]; then
    cmp -s m-old.vcf m-new.vcf && cmp -s ch-old.ndjson ch-new.ndjson || echo "day $d: the outputs differ"
  fi
done
ls -l store-*.sqlite
