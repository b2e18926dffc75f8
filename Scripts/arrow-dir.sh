#!/usr/bin/env bash
# Prints the directory of a pyarrow installation: Apache Arrow's C++ headers
# (include/) and libraries (libarrow.so.N, libparquet.so.N, ...), which the
# `Parquet` trait builds against (README "Parquet"):
#
#   OHANA_ARROW_DIR=$(Scripts/arrow-dir.sh [PYTHON]) swift build --traits Parquet
#
# PYTHON (default python3) must import pyarrow (`pip install pyarrow`).
set -euo pipefail
python=${1:-python3}
dir=$("$python" -c 'import pyarrow; print(pyarrow.__path__[0])') || {
  echo "arrow-dir: $python cannot import pyarrow (pip install pyarrow)" >&2
  exit 2
}
[ -f "$dir/include/parquet/arrow/reader.h" ] || { echo "arrow-dir: $dir has no Arrow C++ headers" >&2; exit 2; }
echo "$dir"
