#!/usr/bin/env bash
# `ohana normalize` (every normalizer) beside the Python stack a data
# engineer would script (python_stack.py: nameparser, email-validator,
# phonenumbers, pycountry, datetime) on the same N contacts (issue 46,
# "Speed"). ohana's time is the whole command (read, normalize, write);
# Python's excludes its read of the NDJSON and uses every core.
#
# Usage: Benchmarks/compare/normalize/run.sh            (1,000,000 contacts)
#        N=100000 OHANA=/path/to/release/ohana Benchmarks/compare/normalize/run.sh
# Env: WORK scratch folder (default /tmp/ohana-normalize-compare); VENV a
# virtual environment to install the Python stack into (default $WORK/venv).
set -euo pipefail
N=${N:-1000000}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
WORK=${WORK:-/tmp/ohana-normalize-compare}
VENV=${VENV:-$WORK/venv}
OHANA=${OHANA:-$ROOT/.build/release/ohana}
mkdir -p "$WORK"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q nameparser email-validator phonenumbers pycountry
fi
IN="$WORK/contacts-$N.vcf"
[ -s "$IN" ] || "$OHANA" generate --contacts "$N" --seed 46 -o "$IN" -q
[ -s "$WORK/contacts-$N.ndjson" ] || "$OHANA" convert "$IN" -o "$WORK/contacts-$N.ndjson" --to ndjson -q

echo "ohana normalize, $N contacts ($(nproc) cores):"
/usr/bin/time -f "  %e s wall, %U s user, %M KB peak" "$OHANA" normalize "$IN" -o "$WORK/ohana-out.vcf" --report "$WORK/report.json"
"$VENV/bin/python" "$HERE/python_stack.py" "$WORK/contacts-$N.ndjson" "$WORK/python-out.ndjson"
