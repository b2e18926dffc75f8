#!/usr/bin/env bash
# Runs every benchmark and side-by-side comparison one after another and
# keeps the logs in $OUT (default /tmp/ohana-bench). Run it alone on the
# machine: no build, test suite or other job on the same cores. Peers are
# installed by the compare scripts (pip / apt) when missing.
#
#   Benchmarks/run-all.sh            # everything (about 30 minutes on 2 cores)
#   ONLY="core phone" Benchmarks/run-all.sh
#   ONLY="headline" Benchmarks/run-all.sh   # only the headline table, into $OUT/headline.md
#
# The table at the top of Benchmarks/README.md is not made here but by
# Benchmarks/headline.sh (one short run of each comparison with its peer;
# `--write` puts it into the README). "headline" in ONLY runs it last, with
# this script's ohana, and keeps its table in $OUT/headline.md (its
# HEADLINE_ONLY picks its rows; it is not in the default ONLY).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
OUT=${OUT:-/tmp/ohana-bench}
ONLY=${ONLY:-"core phone sort io dedupe"}
mkdir -p "$OUT"

stamp() { echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) load $(cut -d' ' -f1-3 /proc/loadavg) $*" | tee -a "$OUT/summary.log"; }
want() { case " $ONLY " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

stamp "build (not measured)"
(cd "$root" && swift build -c release --product ohana >/dev/null) || exit 1
(cd "$here" && swift build -c release >/dev/null) || exit 1
ohana="$root/.build/release/ohana"

if want core; then
  stamp "core: core-bench"
  (cd "$here" && swift run -c release core-bench) > "$OUT/core-bench.txt" 2>&1
  stamp "core: core-memory"
  (cd "$here" && swift run -c release core-memory) > "$OUT/core-memory.txt" 2>&1
fi
if want phone; then
  stamp "phone: compare.sh (1M numbers; Python on 100k)"
  PY_N=${PY_N:-100000} "$here/compare/phone/compare.sh" > "$OUT/phone.txt" 2>&1
  stamp "phone: PhoneNumberFormatting processor"
  (cd "$here" && swift package benchmark --target PhoneBenchmarks --filter "PhoneNumberFormatting.*") > "$OUT/phone-processor.txt" 2>&1
fi
if want sort; then
  stamp "sort: compare.sh (1M names, locale de)"
  "$here/compare/sort/compare.sh" "$root/datasets/generated/names-1m.txt" de > "$OUT/sort.txt" 2>&1
fi
if want io; then
  stamp "io: compare.sh (1M cards)"
  [ -f "$OUT/io1m.vcf" ] || "$ohana" generate --contacts 1000000 --seed 42 --version mixed -o "$OUT/io1m.vcf" -q
  FILE="$OUT/io1m.vcf" "$here/compare/io/compare.sh" > "$OUT/io.txt" 2>&1
fi
if want dedupe; then
  stamp "dedupe: 100k with Splink"
  WORK="$OUT/dedupe" "$here/compare/dedupe/compare.sh" 100000 0.2 7 > "$OUT/dedupe-100k.txt" 2>&1
  stamp "dedupe: 1M, ohana only"
  WORK="$OUT/dedupe" SKIP_SPLINK=1 "$here/compare/dedupe/compare.sh" 1000000 0.1 11 > "$OUT/dedupe-1m.txt" 2>&1
fi
if want headline; then
  stamp "headline: Benchmarks/headline.sh (its table in $OUT/headline.md, logs in $OUT/headline)"
  OHANA="$ohana" WORK="$OUT/headline" ONLY="${HEADLINE_ONLY:-phone io sort dedupe febrl store carddav spark}" \
    "$here/headline.sh" > "$OUT/headline.md" 2> "$OUT/headline.log"
  stamp "headline: exit $? (0 all ran, 2 a peer did not, 1 a row failed)"
fi
stamp "done"
