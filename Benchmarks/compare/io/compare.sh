#!/usr/bin/env bash
# OhanaIO vCard throughput, side by side with Python vobject and Java ez-vcard.
#
#   Benchmarks/compare/io/compare.sh                 # 1,000,000 contacts, seed 42
#   CONTACTS=200000 SUBSET=5000 Benchmarks/compare/io/compare.sh
#
# Environment:
#   CONTACTS   cards in the generated file (default 1000000)
#   SEED       generator seed (default 42)
#   FILE       use this .vcf instead of generating one
#   SUBSET     cards given to vobject (default 20000: it runs at ~1 MB/s)
#   EZ_SUBSET  cards given to ez-vcard (default 0 = the whole file)
#   WORKERS    OhanaIO parse tasks (default 2)
#   WORK       scratch folder (default /tmp/ohana-io-compare)
#   OHANA      the release ohana that generates the file (default the repo's)
#   BENCH      a built ohana-io-bench to use as it is (no build)
#   SKIP_VOBJECT=1, SKIP_EZVCARD=1  leave a peer out (its summary line says
#              "not run")
#
# The file comes from `ohana generate` when the CLI has that command, else
# from gen_vcards.py here (mixed 2.1 / 3.0 / 4.0 cards, seeded). Every tool
# reads the same bytes; throughput is file MB / wall seconds. Peak memory
# is /usr/bin/time's maximum resident set size of the OhanaIO read. On a
# machine shared with other jobs the figures are noisy: the load average is
# printed with them.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
CONTACTS=${CONTACTS:-1000000}
SEED=${SEED:-42}
SUBSET=${SUBSET:-20000}
EZ_SUBSET=${EZ_SUBSET:-0}
WORKERS=${WORKERS:-2}
WORK=${WORK:-/tmp/ohana-io-compare}
mkdir -p "$WORK"

say() { printf '\n== %s\n' "$*"; }

# --- tools -----------------------------------------------------------------
SKIP_VOBJECT=${SKIP_VOBJECT:-0}
SKIP_EZVCARD=${SKIP_EZVCARD:-0}
if [ "$SKIP_VOBJECT" != 1 ] && ! python3 -c "import vobject" 2>/dev/null; then
  say "installing vobject (pip)"
  python3 -m pip install -q vobject
fi
EZ_CP=/usr/share/java/ez-vcard.jar:/usr/share/java/vinnie.jar
if [ "$SKIP_EZVCARD" != 1 ]; then
  if [ ! -f /usr/share/java/ez-vcard.jar ] || [ ! -f /usr/share/java/vinnie.jar ]; then
    say "installing ez-vcard (Debian libez-vcard-java, libvinnie-java)"
    apt-get install -y -qq libez-vcard-java libvinnie-java default-jdk-headless >/dev/null
  fi
  mkdir -p "$WORK/java"
  javac -d "$WORK/java" -cp "$EZ_CP" "$HERE/EzVcardCount.java"
fi

if [ -z "${BENCH:-}" ]; then
  say "building the OhanaIO harness (release)"
  # (a second build picks up source files added since the last one)
  (cd "$HERE" && { swift build -c release --product ohana-io-bench >/dev/null 2>&1 \
    || swift build -c release --product ohana-io-bench 2>&1 | tail -3; })
  BENCH="$(cd "$HERE" && swift build -c release --product ohana-io-bench --show-bin-path)/ohana-io-bench"
fi

# --- input -----------------------------------------------------------------
if [ -z "${FILE:-}" ]; then
  FILE="$WORK/contacts-$CONTACTS-$SEED.vcf"
  if [ ! -s "$FILE" ]; then
    OHANA_BIN="${OHANA:-$ROOT/.build/release/ohana}"
    if [ -x "$OHANA_BIN" ] && "$OHANA_BIN" generate --help >/dev/null 2>&1; then
      say "generating $CONTACTS contacts with ohana generate"
      "$OHANA_BIN" generate --contacts "$CONTACTS" --seed "$SEED" -o "$FILE"
    else
      say "generating $CONTACTS contacts with gen_vcards.py"
      python3 "$HERE/gen_vcards.py" --contacts "$CONTACTS" --seed "$SEED" -o "$FILE"
    fi
  fi
fi
SIZE=$(stat -c %s "$FILE")
head_cards() {  # first $1 cards of $FILE into $2
  awk -v n="$1" '{ print } toupper(substr($0, 1, 9)) == "END:VCARD" { if (++c >= n) exit }' "$FILE" > "$2"
}
VOBJ_FILE="$WORK/subset-$SUBSET.vcf"
head_cards "$SUBSET" "$VOBJ_FILE"
EZ_FILE="$FILE"
if [ "$EZ_SUBSET" != "0" ]; then
  EZ_FILE="$WORK/subset-ez-$EZ_SUBSET.vcf"
  head_cards "$EZ_SUBSET" "$EZ_FILE"
fi

mbps() { sed -n 's/.* \([0-9.]*\) MB\/s.*/\1/p' | head -1; }

say "machine"
echo "cores: $(nproc), $(uptime | sed 's/.*load average/load average/')"
echo "file: $FILE ($((SIZE / 1000000)) MB)"
[ "$SKIP_VOBJECT" = 1 ] || echo "vobject version: $(python3 -c 'import importlib.metadata as m; print(m.version("vobject"))')"
[ "$SKIP_EZVCARD" = 1 ] || echo "ez-vcard version: $(dpkg-query -W -f '${Version}' libez-vcard-java 2>/dev/null || echo unknown)"

say "OhanaIO read ($WORKERS workers)"
"$BENCH" read "$FILE" --workers "$WORKERS" > "$WORK/ours-read.txt" 2> "$WORK/ours-time.txt" || true
/usr/bin/time -v "$BENCH" read "$FILE" --workers "$WORKERS" > "$WORK/ours-read.txt" 2> "$WORK/ours-time.txt"
cat "$WORK/ours-read.txt"
PEAK_KB=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/ours-time.txt")
echo "peak memory: $((PEAK_KB / 1024)) MiB (input $((SIZE / 1048576)) MiB)"

say "OhanaIO write (vCard 4.0)"
"$BENCH" write "$FILE" --workers "$WORKERS" --format vcard4 | tee "$WORK/ours-write.txt"

say "OhanaIO read, vobject subset ($SUBSET cards)"
"$BENCH" read "$VOBJ_FILE" --workers "$WORKERS" | tee "$WORK/ours-subset.txt"

VOBJ="" EZ=""
if [ "$SKIP_VOBJECT" != 1 ]; then
  say "vobject ($SUBSET cards)"
  python3 "$HERE/vobject_count.py" "$VOBJ_FILE" 2>/dev/null | tee "$WORK/vobject.txt"
  VOBJ=$(mbps < "$WORK/vobject.txt")
fi

if [ "$SKIP_EZVCARD" != 1 ]; then
  say "ez-vcard ($([ "$EZ_SUBSET" = 0 ] && echo "whole file" || echo "$EZ_SUBSET cards"))"
  java -Xmx8g -cp "$WORK/java:$EZ_CP" EzVcardCount "$EZ_FILE" | tee "$WORK/ez.txt"
  EZ=$(mbps < "$WORK/ez.txt")
fi

OURS=$(mbps < "$WORK/ours-read.txt")
OURS_SUB=$(mbps < "$WORK/ours-subset.txt")
WRITE=$(grep memory "$WORK/ours-write.txt" | mbps)
say "summary"
awk -v o="$OURS" -v os="$OURS_SUB" -v w="$WRITE" -v v="$VOBJ" -v e="$EZ" -v peak="$PEAK_KB" -v size="$SIZE" 'BEGIN {
  printf "parse:  OhanaIO %.1f MB/s (target >= 300)\n", o
  printf "write:  OhanaIO %.1f MB/s (target >= 200)\n", w
  if (v == "") print "vs vobject:  not run (SKIP_VOBJECT=1)"
  else printf "vs vobject:  %.1f MB/s on the subset, OhanaIO %.1f MB/s there: %.0fx (target >= 100x)\n", v, os, os / v
  if (e == "") print "vs ez-vcard: not run (SKIP_EZVCARD=1)"
  else printf "vs ez-vcard: %.1f MB/s, OhanaIO %.1f MB/s: %.1fx (target >= 10x)\n", e, o, o / e
  printf "peak memory: %.0f%% of the input size (target < 50%%)\n", 100 * peak * 1024 / size
}'
echo "(shared cores: figures are noisy; see the load average above)"
