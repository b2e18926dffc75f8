#!/usr/bin/env bash
# Writes the DocC manual (Sources/Ohana/Ohana.docc and the symbol pages of
# the module Ohana) as a static web site, ready for any static host:
#
#   Scripts/docs-site.sh [OUT_DIR] [BASE_PATH]
#
# OUT_DIR defaults to .build/docs-site; BASE_PATH (the site's path on its
# host, e.g. "ohana" for https://example.github.io/ohana/) defaults to "/".
# Open OUT_DIR/documentation/ohana/index.html through a web server (DocC's
# pages load their data with fetch, which browsers refuse from file://):
#   python3 -m http.server -d OUT_DIR 8000  →  http://localhost:8000/documentation/ohana/
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/docs-site}
base=${2:-/}
mkdir -p "$out"
swift package --allow-writing-to-directory "$out" generate-documentation --target Ohana \
  --warnings-as-errors --disable-indexing --transform-for-static-hosting \
  --hosting-base-path "$base" --output-path "$out"
echo "site written to $out (documentation/ohana/index.html)"
