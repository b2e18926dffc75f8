#!/usr/bin/env bash
# Builds the seed corpus in Tests/Fuzz/corpus/{vcard,csv,ndjson,phone}
# (generated, git-ignored; run again to rebuild it):
#   vcard:  cards from `ohana generate --version mixed`
#           (seeds 1-3, 200 contacts each) cut into files of 4 cards;
#   csv, ndjson: those 4-card files converted with `ohana convert`, plus a
#           few hand-written Google / Outlook CSV headers;
#   phone:  one file per row of Tests/OhanaPhoneTests/Fixtures/phone-fixture.tsv,
#           holding the region and then the raw number (as fuzz-phone reads it).
# OHANA=path/to/ohana picks the tool; else the package's debug build (built
# under the build lock if missing).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$here/corpus"
shared="$root/../shared/corpus/vcard"

ohana=${OHANA:-$root/.build/debug/ohana}
if [ ! -x "$ohana" ]; then
  (cd "$root" && flock /tmp/ohana-build.lock swift build --product ohana)
fi

rm -rf "$out"
mkdir -p "$out/vcard" "$out/csv" "$out/ndjson" "$out/phone"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The real corpus is not copied: run.sh hands ../shared/corpus/vcard to
# libFuzzer as a second, read-only seed folder (it reads folders recursively).
if [ ! -d "$shared" ]; then
  echo "make-seeds.sh: WARNING: $shared is missing; no real-corpus seeds" >&2
fi

# Generated cards, 4 to a file.
for seed in 1 2 3; do
  "$ohana" generate --contacts 200 --seed "$seed" --version mixed -o "$tmp/gen$seed.vcf" >/dev/null
  awk -v dir="$tmp" -v seed="$seed" '
    toupper($0) ~ /^BEGIN:VCARD/ { if (n % 4 == 0) { file = sprintf("%s/gen%d-%03d.vcf", dir, seed, n / 4) } n++ }
    { print > file }' "$tmp/gen$seed.vcf"
done
for f in "$tmp"/gen*-*.vcf; do
  name=$(basename "$f" .vcf)
  cp "$f" "$out/vcard/$name.vcf"
  "$ohana" convert "$f" -o "$out/csv/$name.csv" -q
  "$ohana" convert "$f" -o "$out/ndjson/$name.ndjson" -q
done

# Other CSV headers the reader maps.
printf 'Name,Given Name,Family Name,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value,Address 1 - City,Address 1 - Street,Organization 1 - Name\r\nAda Lovelace,Ada,Lovelace,* Home,ada@example.org,Mobile,+44 20 7946 0000 ::: +44 20 7946 0001,London,"12 St James\x27s Sq, Flat 2",Analytical Engines\r\n' \
  >"$out/csv/google.csv"
printf 'First Name,Last Name,Mobile Phone,Business Phone,E-mail Address,E-mail 2 Address,Business Street,Business City,Home Country/Region,Notes\nGrace,Hopper,+1 202 555 0100,(202) 555-0101,grace@example.com,gh@example.net,"1 Navy Way\nSuite ""A""",Arlington,USA,"multi\r\nline"\n' \
  >"$out/csv/outlook.csv"

# Phone numbers: region then raw number, one file each.
awk -F '\t' -v dir="$out/phone" '{ printf "%s%s", $2, $1 > sprintf("%s/p%05d", dir, NR); close(sprintf("%s/p%05d", dir, NR)) }' \
  "$root/Tests/OhanaPhoneTests/Fixtures/phone-fixture.tsv"

for d in vcard csv ndjson phone; do
  echo "seeds $d: $(find "$out/$d" -type f | wc -l) files, $(du -sh "$out/$d" | cut -f1)"
done
