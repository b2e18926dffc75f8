#!/usr/bin/env bash
# The glibc 2.28 floor (README "Where it runs"): prints the extra `swift
# build` arguments that make the release archive's binary and the wheel's
# library run on glibc 2.28 and later (RHEL 8 and 9, Amazon Linux 2023,
# Debian 10 and later, Ubuntu 18.10 and later), though built on Debian 12
# (glibc 2.36):
#
#   Scripts/glibc-floor.sh -- swift build -c release --product ohana -Xswiftc -static-stdlib
#
# runs the command with the floor's arguments appended and PKG_CONFIG_PATH
# pointing at the floor's sqlite3.pc (below); without `-- COMMAND` it
# prints the arguments. The first call prepares KIT (.build/glibc-2.28,
# or $OHANA_GLIBC_FLOOR_KIT).
#
# Why and how:
# - A program takes the symbol versions of the C library it is linked
#   against: linked on glibc 2.36 it asks for fstat@GLIBC_2.33,
#   pthread_create@GLIBC_2.34, exp@GLIBC_2.29, ... and will not start on
#   an older glibc. Linked against glibc 2.28's own symbol list it asks for
#   the versions 2.28 has, which every later glibc still carries.
# - That list comes from zig (the `ziglang` wheel on PyPI, pinned below):
#   `zig cc -target x86_64-linux-gnu.2.28` writes stub libc.so.6,
#   libm.so.6, libpthread.so.0, ... holding glibc 2.28's symbols and
#   versions and no code, and a libc_nonshared.a with the stat wrappers a
#   glibc before 2.33 needs. They go into KIT/lib, which the link searches
#   before the system's directories. Nothing of zig's is linked in but
#   those wrappers; the stubs are never shipped: at run time the machine's
#   own glibc is loaded.
# - The program's start file is zig's Scrt1.o for 2.28 too (KIT/crt, found
#   first through clang's -B). Debian 12's passes no constructor-runner to
#   __libc_start_main, as glibc 2.34 and later expect; bound to the 2.2.5
#   version of that function, an older glibc would then run none of the
#   program's constructors (the Swift runtime's registration among them)
#   and the program would crash at its first protocol lookup. zig's calls
#   __libc_csu_init (from its libc_nonshared.a), as a glibc 2.28 program
#   does.
# - libstdc++ and libgcc's builtins are linked in from GCC's static
#   archives (KIT/lib/libstdc++.so is a linker script naming libstdc++.a),
#   so no GLIBCXX_ or CXXABI_ version is needed; libgcc_s.so.1, there on
#   every glibc system, stays shared (GCC_3.0 to GCC_4.2.0).
# - SQLite, libxml2, zlib and liblzma are linked in from Debian's static
#   archives (the same versions as the shared ones, built as
#   position-independent code) the same way. SwiftPM puts pkg-config's
#   `-L/usr/lib/x86_64-linux-gnu` for SQLite ahead of every other search
#   directory, so KIT/pkgconfig/sqlite3.pc (first on PKG_CONFIG_PATH) is
#   the system's with KIT/lib as its directory.
# - ICU 72 is linked in too. Debian's shared libicuuc.so.72 needs
#   GLIBC_2.34 and GLIBCXX_3.4.30, and its static archives are built as
#   position-independent executable code, which no shared library can be
#   linked from (PC-relative references to other objects' data): so ICU
#   cannot stay a separate library without building ICU from source.
#   Foundation carries its own ICU 76 (_FoundationICU, its C functions
#   prefixed `swift_`); the two share a few C++ names outside ICU's
#   namespace (struct UCaseMap's constructors and destructors,
#   CollatorSpec's destructor). KIT/static holds copies of ICU 72's
#   archives with exactly the names both define renamed (`objcopy
#   --redefine-syms`, the list worked out here from both archives'
#   symbol tables), so that each ICU keeps its own. Being PIE code, ICU's
#   archives also read glibc's `__timezone` and `tzname` in a way only an
#   executable can link; the copies read our own copies instead, which the
#   wheel's library can (Sources/COhanaCore/glibcfloor.c says how it is
#   filled). So ICU is linked into the wheel's library as well, and
#   nothing is grafted.
# - GCC 12's static libstdc++ names two symbols glibc 2.28 lacks:
#   __libc_single_threaded (2.32) and arc4random (2.36), and Foundation's
#   static CoreFoundation posix_spawn_file_actions_addchdir_np (2.29). Our
#   stand-ins are in Sources/COhanaCore/glibcfloor.c; `--defsym` points
#   each name at its stand-in in this link only.
# - Only libgcc_s.so.1 (needing _dl_find_object, glibc 2.35, itself) and
#   Arrow's libraries (needing the system's libstdc++) are checked by the
#   link against the system's copies; `--allow-shlib-undefined` lets the
#   link pass over what those shared libraries need from a newer glibc,
#   which is theirs to have on the machine that runs them.
#   Scripts/glibc-floor-check.py then checks what was built: no GLIBC_
#   version above 2.28, no GLIBCXX_ or CXXABI_, no symbol left unversioned.
#
# KIT (default .build/glibc-2.28) holds the stubs, the linker scripts, ICU's
# renamed archives, a
# virtual environment with ziglang (or ZIG_PYTHON: a Python that has it)
# and zig's cache. Needs Debian's libicu-dev, libsqlite3-dev, libxml2-dev,
# zlib1g-dev and liblzma-dev (their static archives) and GCC 12's
# libstdc++.a (libstdc++-12-dev, which the Swift toolchain needs anyway).
set -euo pipefail
self=$(readlink -f "$0")
cd "$(dirname "$self")/.."
kit_dir=${OHANA_GLIBC_FLOOR_KIT:-.build/glibc-2.28}
kit=$(mkdir -p "$kit_dir" && cd "$kit_dir" && pwd)
zig_version=0.17.1
target=x86_64-linux-gnu.2.28
# Made again whenever this script changes.
stamp="$kit/ready-$zig_version-$(sha256sum "$self" | cut -c1-16)"

say() { echo "glibc-floor: $*" >&2; }
defsyms="--defsym=arc4random=ohana_floor_arc4random --defsym=__libc_single_threaded=ohana_floor_single_threaded"
defsyms+=" --defsym=posix_spawn_file_actions_addchdir_np=ohana_floor_posix_spawn_file_actions_addchdir_np"
flags() {
  # -z defs: the wheel's shared library too must leave nothing undefined
  # that the libraries it names do not define.
  local d out="-Xswiftc -L$kit/lib -Xswiftc -Xclang-linker -Xswiftc -B$kit/crt/"
  out+=" -Xcc -DOHANA_GLIBC_FLOOR_MINOR=28 -Xlinker --allow-shlib-undefined -Xlinker -zdefs"
  for d in $defsyms; do out+=" -Xlinker $d"; done
  echo "$out"
}

# Prints the arguments, or runs `-- COMMAND...` with them.
finish() {
  if [ "${1:-}" = -- ]; then
    shift
    [ $# -gt 0 ] || { say "nothing to run after --"; exit 2; }
    local extra
    read -r -a extra <<<"$(flags)"
    PKG_CONFIG_PATH=$kit/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} exec "$@" "${extra[@]}"
  fi
  flags
  exit 0
}

[ "$(uname -m)" = x86_64 ] || { say "builds for x86_64 only (this is $(uname -m))"; exit 2; }
if [ -f "$stamp" ]; then finish "$@"; fi

python=${ZIG_PYTHON:-}
if [ -z "$python" ]; then
  if [ ! -x "$kit/venv/bin/python" ]; then
    say "installing ziglang==$zig_version into $kit/venv (PyPI)"
    python3 -m venv "$kit/venv" >&2
    "$kit/venv/bin/pip" install -q "ziglang==$zig_version" >&2
  fi
  python=$kit/venv/bin/python
fi
"$python" -m ziglang version >/dev/null || { say "$python has no ziglang (pip install ziglang==$zig_version)"; exit 2; }

# zig writes the stubs for the target into its cache on the first link.
export ZIG_GLOBAL_CACHE_DIR=$kit/zig-cache ZIG_LOCAL_CACHE_DIR=$kit/zig-cache
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'int main(void) { return 0; }' > "$probe/probe.c"
"$python" -m ziglang cc -target "$target" "$probe/probe.c" -o "$probe/probe" >&2
"$python" -m ziglang cc -target "$target" -fPIE -pie "$probe/probe.c" -o "$probe/probe-pie" >&2
stub_dir=$(dirname "$(find "$kit/zig-cache" -name libc.so.6 -path '*/o/*' | head -1)")
nonshared=$(find "$kit/zig-cache" -name libc_nonshared.a | head -1)
[ -f "$stub_dir/libc.so.6" ] && [ -f "$nonshared" ] || { say "zig wrote no glibc stubs under $kit/zig-cache"; exit 1; }

start=$(find "$kit/zig-cache" -name Scrt1.o | head -1)
[ -f "$start" ] || { say "zig wrote no Scrt1.o under $kit/zig-cache"; exit 1; }
nm "$start" | grep -q ' U __libc_csu_init' || { say "$start does not call __libc_csu_init: not a glibc 2.28 start file"; exit 1; }
rm -rf "$kit/crt" && mkdir -p "$kit/crt" && cp "$start" "$kit/crt/"
rm -rf "$kit/lib" && mkdir -p "$kit/lib"
cp "$stub_dir"/lib*.so.* "$nonshared" "$kit/lib/"
lib=$kit/lib
# zig names the dynamic loader's stub libld.so.2 (its soname is the real one).
printf 'GROUP ( %s/libc.so.6 %s/libc_nonshared.a AS_NEEDED ( %s/libld.so.2 ) )\n' "$lib" "$lib" "$lib" > "$lib/libc.so"
for name in m pthread dl rt util resolv; do
  real=$(cd "$lib" && ls "lib$name.so."*)
  ln -sf "$real" "$lib/lib$name.so"
done

# Static archives behind the names the link asks for (-lstdc++, -licuuc, ...).
gcc_lib=$(dirname "$(g++ -print-file-name=libstdc++.a 2>/dev/null || true)")
stdcxx=$gcc_lib/libstdc++.a
[ -f "$stdcxx" ] || stdcxx=$(ls /usr/lib/gcc/x86_64-linux-gnu/*/libstdc++.a 2>/dev/null | sort -V | tail -1)
[ -f "$stdcxx" ] || { say "no libstdc++.a (apt-get install libstdc++-12-dev)"; exit 1; }
printf 'GROUP ( %s )\n' "$stdcxx" > "$lib/libstdc++.so"
multiarch=/usr/lib/x86_64-linux-gnu
for name in icuuc icui18n icudata sqlite3 xml2 z lzma; do
  [ -f "$multiarch/lib$name.a" ] || { say "no $multiarch/lib$name.a (its Debian -dev package)"; exit 1; }
done
printf 'GROUP ( %s )\n' "$multiarch/libsqlite3.a" > "$lib/libsqlite3.so"
printf 'GROUP ( %s %s %s )\n' "$multiarch/libxml2.a" "$multiarch/liblzma.a" "$multiarch/libz.a" > "$lib/libxml2.so"
printf 'GROUP ( %s )\n' "$multiarch/libz.a" > "$lib/libz.so"
printf 'GROUP ( %s )\n' "$multiarch/liblzma.a" > "$lib/liblzma.so"

# ICU 72's archives with the names Foundation's ICU also defines renamed.
swift_bin=$(command -v swift || true)
toolchain=$(dirname "$(dirname "$(readlink -f "${swift_bin:-/opt/swift/usr/bin/swift}")")")
foundation_icu=$toolchain/lib/swift_static/linux/lib_FoundationICU.a
[ -f "$foundation_icu" ] || { say "no $foundation_icu (the Swift toolchain's static Foundation)"; exit 1; }
rm -rf "$kit/static" && mkdir -p "$kit/static"
defined() { nm -g --defined-only "$@" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u; }
comm -12 <(defined "$multiarch/libicuuc.a" "$multiarch/libicui18n.a" "$multiarch/libicudata.a") \
  <(defined "$foundation_icu") | grep -v '^DW\.ref\.' | awk '{print $1, "ohana_icu72_" $1}' > "$kit/static/renamed.txt"
# ICU's PC-relative reads of C library variables, which a shared
# library cannot link (Sources/COhanaCore/glibcfloor.c, ohana_floor_timezone).
printf '%s\n' "__timezone ohana_floor_timezone" "tzname ohana_floor_tzname" >> "$kit/static/renamed.txt"
for name in icuuc icui18n icudata; do
  objcopy --redefine-syms="$kit/static/renamed.txt" "$multiarch/lib$name.a" "$kit/static/lib$name.a"
  # libstdc++.a in the same group: the link names -lstdc++ before -licuuc,
  # and an archive only gives what is wanted when it is read.
  printf 'GROUP ( %s %s )\n' "$kit/static/lib$name.a" "$stdcxx" > "$lib/lib$name.so"
done
say "ICU 72 linked in; renamed: $(cut -d' ' -f1 "$kit/static/renamed.txt" | tr '\n' ' ')"

system_pc=$(pkg-config --variable=pcfiledir sqlite3 2>/dev/null || true)/sqlite3.pc
[ -f "$system_pc" ] || { say "no sqlite3.pc (apt-get install libsqlite3-dev pkg-config)"; exit 1; }
mkdir -p "$kit/pkgconfig"
sed "s|^Libs: .*|Libs: -L$lib -lsqlite3|" "$system_pc" > "$kit/pkgconfig/sqlite3.pc"
rm -f "$kit"/ready-*
touch "$stamp"
say "ready: $kit (glibc 2.28 stubs from zig $zig_version, static libstdc++ $(basename "$(dirname "$stdcxx")"))"
finish "$@"
