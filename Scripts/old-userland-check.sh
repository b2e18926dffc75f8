#!/usr/bin/env bash
# Runs the release archive and the wheel on an older userland than the one
# they were built on (README "Where it runs"): Debian 11, glibc 2.31 and
# Python 3.9, made with debootstrap from the Debian registry. Nothing older
# than glibc 2.31 can be had here; below it, the evidence is
# Scripts/glibc-floor-check.py's reading of the symbol versions.
#
#   Scripts/old-userland-check.sh ARCHIVE.tar.gz WHEEL [ROOT]
#
# ROOT (default /var/tmp/ohana-bullseye) is made once (`debootstrap
# --variant=minbase --include=python3,python3-venv bullseye`, about a
# minute and 60 MB from deb.debian.org) and reused. Needs root, debootstrap
# and util-linux's unshare. In a mount namespace of its own, with /proc and
# /dev mounted into ROOT, it chroots there and:
#   1. prints `ldd --version` (the userland's glibc);
#   2. runs the archive's bin/ohana on the README's main job and a dedupe of
#      the bundled sample: the outputs must equal those of the same binary
#      run here first, byte for byte;
#   3. installs the wheel into a Python 3.9 virtual environment (pyarrow
#      from wheels downloaded here for 3.9, pip given no index) and reads,
#      normalizes and dedupes the sample, and sorts with a Swedish
#      collation, each checked against a plain expectation.
# Each step prints PASS or FAIL; the last line counts them.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
archive=$(readlink -f "${1:?archive}")
wheel=$(readlink -f "${2:?wheel}")
root=${3:-/var/tmp/ohana-bullseye}
python=${PYTHON:-python3}

passed=0 failed=0
verdict() { if [ "$2" -eq 0 ]; then echo "PASS $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }
finish() { echo "old userland: $passed passed, $failed failed"; [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]; exit; }

[ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null || { verdict "root and unshare" 1; finish; }
if [ ! -x "$root/usr/bin/python3" ]; then
  command -v debootstrap >/dev/null || { echo "debootstrap not found (apt-get install debootstrap)"; verdict debootstrap 1; finish; }
  rm -rf "$root"
  debootstrap --variant=minbase --include=python3,python3-venv bullseye "$root" http://deb.debian.org/debian \
    > /tmp/ohana-debootstrap.log 2>&1
  verdict "debootstrap bullseye (log /tmp/ohana-debootstrap.log)" $? || true
  [ -x "$root/usr/bin/python3" ] || finish
fi

# What the chroot gets: the archive unpacked, the wheel, pyarrow's wheels
# for its Python, the sample and the expected outputs.
work=$root/ohana-check
rm -rf "$work" && mkdir -p "$work/wheels"
tar -C "$work" -xzf "$archive"
dir=$(cd "$work" && ls -d ohana-*-linux-*)
cp "$wheel" "$work/wheels/"
cp datasets/sample-1000.vcf datasets/ohana-example.vcf "$work/"
old_python=$(chroot "$root" python3 -c 'import sys; print(f"{sys.version_info[0]}{sys.version_info[1]}")')
"$python" -m pip download -q --only-binary :all: --python-version "$old_python" --platform manylinux2014_x86_64 \
  --platform manylinux_2_28_x86_64 -d "$work/wheels" "pyarrow>=14" > "$work/pip-download.log" 2>&1
verdict "pyarrow for Python $old_python downloaded" $?

job=(process ohana-example.vcf -o - --to ndjson --require givenName --require familyName --require photo
     --format-phones e164,international --region US --sort family --locale en)
(cd "$work" && "$work/$dir/bin/ohana" "${job[@]}" > expected-process.ndjson 2> host.err &&
  "$work/$dir/bin/ohana" dedupe sample-1000.vcf -o expected-merged.vcf --clusters expected-clusters.csv -q 2>> host.err)
rc=$?
[ $rc -eq 0 ] || sed 's/^/    /' "$work/host.err"
verdict "the archive's binary runs here ($(ldd --version | head -1 | awk '{print $NF}'))" $rc

cat > "$work/inside.sh" <<EOF
set -u
cd /ohana-check
echo "userland: \$(ldd --version | head -1)"
ohana=/ohana-check/$dir/bin/ohana
\$ohana --version
\$ohana ${job[*]} > process.ndjson && cmp process.ndjson expected-process.ndjson
echo "main-job \$?"
\$ohana dedupe sample-1000.vcf -o merged.vcf --clusters clusters.csv -q && cmp merged.vcf expected-merged.vcf && cmp clusters.csv expected-clusters.csv
echo "dedupe \$?"
python3 -m venv venv && venv/bin/pip install -q --no-index --find-links wheels ohana > pip.log 2>&1
echo "wheel-install \$?"
venv/bin/python - <<'PY'
import pyarrow as pa, ohana
t = ohana.read(["sample-1000.vcf"])
assert t.num_rows == open("sample-1000.vcf", encoding="utf-8").read().count("BEGIN:VCARD"), t.num_rows
e164 = ohana.normalize_phones(pa.array(["(415) 555-0123"]), region="US").column("phone.e164").to_pylist()
assert e164 == ["+14155550123"], e164
merged, clusters = ohana.dedupe(ohana.normalize_phones(t, region="US"), region="US")
assert 0 < merged.num_rows < t.num_rows, (merged.num_rows, t.num_rows)
people = pa.table({"familyName": ["Zeller", "\u00d6berg", "Olsen"]})
sv = ohana.sort(people, by="family", locale="sv").column("familyName").to_pylist()
assert sv == ["Olsen", "Zeller", "\u00d6berg"], sv
print(f"wheel: {t.num_rows} read, {merged.num_rows} after dedupe, sv order {sv}")
PY
echo "wheel-use \$?"
EOF
out=$(unshare --mount --propagation private bash -c '
  root=$1
  mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" || exit 1
  chroot "$root" /bin/bash /ohana-check/inside.sh' _ "$root" 2>&1)
echo "$out" | grep -avE '^(main-job|dedupe|wheel-install|wheel-use) [0-9]+$' | sed 's/^/    /'
for step in main-job dedupe wheel-install wheel-use; do
  rc=$(echo "$out" | sed -n "s/^$step \([0-9]*\)\$/\1/p" | tail -1)
  verdict "$step in the chroot" "${rc:-1}"
done
[ -f "$work/pip.log" ] && grep -qiE "error" "$work/pip.log" && sed 's/^/    pip: /' "$work/pip.log" | tail -5
finish
