#!/usr/bin/env bash
# Checks a release archive (Scripts/release-archive.sh) the way a machine
# without Swift meets it: in a mount namespace of its own (root, util-linux's
# unshare) the Swift toolchain is hidden under a tmpfs, the C and C++
# compilers and every system ICU library under /dev/null; the archive is
# unpacked there and its bin/ohana runs the README's main job and a dedupe of
# the bundled 1,000-contact sample. The outputs must equal those of the
# toolchain's own build (.build/release/ohana, run first, outside), byte for
# byte, and no library may load from outside the archive but glibc's,
# libgcc_s and libstdc++ (the last only for Arrow's libraries). First, every
# shipped ELF file's symbol versions are checked against the glibc 2.28
# floor (Scripts/glibc-floor-check.py; OHANA_GLIBC_FLOOR=none skips it for
# an archive built without the floor).
#
#   Scripts/release-archive-check.sh ARCHIVE.tar.gz
set -euo pipefail
cd "$(dirname "$0")/.."
archive=$(readlink -f "$1")
if [ "${2:-}" != --inside ]; then
  [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null || { echo "FAIL: needs root and unshare"; exit 1; }
  if [ "${OHANA_GLIBC_FLOOR:-2.28}" != none ]; then
    python3 Scripts/glibc-floor-check.py --floor "${OHANA_GLIBC_FLOOR:-2.28}" --archive "$archive" \
      || { echo "FAIL: the archive needs more than glibc ${OHANA_GLIBC_FLOOR:-2.28}"; exit 1; }
  fi
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  # The expected outputs, from the toolchain's build.
  job=(process datasets/ohana-example.vcf -o - --to ndjson --require givenName --require familyName --require photo
       --format-phones e164,international --region US --sort family --locale en)
  .build/release/ohana "${job[@]}" > "$work/expected-process.ndjson"
  .build/release/ohana dedupe datasets/sample-1000.vcf -o "$work/expected-merged.vcf" --clusters "$work/expected-clusters.csv" -q
  unshare --mount --propagation private "$0" "$archive" --inside "$work"
  exit $?
fi

work=$3
# Hide the toolchain, the compilers and the system ICU.
swift_bin=$(command -v swift || true)
toolchain=/opt/swift
[ -n "$swift_bin" ] && toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$swift_bin")")")")
[ -d "$toolchain" ] && mount -t tmpfs tmpfs "$toolchain" && echo "hidden: the Swift toolchain, $toolchain"
for c in cc gcc c++ g++ clang clang++ swiftc; do
  p=$(command -v "$c" || true)
  [ -n "$p" ] && [ -e "$(readlink -f "$p")" ] && mount --bind /dev/null "$(readlink -f "$p")" && echo "hidden: $c"
done
n=0
declare -A seen=()
for f in /usr/lib/x86_64-linux-gnu/libicu*.so* /lib/x86_64-linux-gnu/libicu*.so*; do
  [ -e "$f" ] || continue
  f=$(readlink -f "$f")
  [ -z "${seen[$f]:-}" ] || continue
  seen[$f]=1
  mount --bind /dev/null "$f"
  n=$((n + 1))
done
echo "hidden: $n system ICU library files"
[ "$n" -gt 0 ] || { echo "FAIL: no system ICU found to hide: the check would prove nothing"; exit 1; }
if command -v swift >/dev/null 2>&1 && swift --version >/dev/null 2>&1; then echo "FAIL: swift still runs"; exit 1; fi

tar -C "$work" -xzf "$archive"
dir=$(ls -d "$work"/ohana-*-linux-*)
ohana=$dir/bin/ohana
# Every library from the archive, or glibc's own.
missing=$(ldd "$ohana" | grep "not found" || true)
[ -z "$missing" ] || { echo "FAIL: libraries not found:"; echo "$missing"; exit 1; }
outside=$(ldd "$ohana" | awk '/=> \// {print $1, $3}' | grep -vE "^(libc|libm|libpthread|libdl|librt|libutil|ld-linux|libgcc_s|libstdc\+\+)[.-]" \
  | while read -r soname path; do [[ $(readlink -f "$path") == "$dir/lib/"* ]] || echo "$soname $path"; done || true)
[ -z "$outside" ] || { echo "FAIL: libraries loaded from outside the archive:"; echo "$outside"; exit 1; }
"$ohana" --version
job=(process datasets/ohana-example.vcf -o - --to ndjson --require givenName --require familyName --require photo
     --format-phones e164,international --region US --sort family --locale en)
"$ohana" "${job[@]}" > "$work/process.ndjson"
cmp "$work/process.ndjson" "$work/expected-process.ndjson" || { echo "FAIL: the main job's output differs"; exit 1; }
"$ohana" dedupe datasets/sample-1000.vcf -o "$work/merged.vcf" --clusters "$work/clusters.csv" -q
cmp "$work/merged.vcf" "$work/expected-merged.vcf" && cmp "$work/clusters.csv" "$work/expected-clusters.csv" \
  || { echo "FAIL: the dedupe's outputs differ"; exit 1; }
echo "PASS: $(basename "$dir") runs without Swift and without the system ICU (glibc $(cat "$dir/GLIBC") or later): the main job ($(wc -l < "$work/process.ndjson") contacts) and a dedupe of 1,000, the same bytes as the toolchain's build"
