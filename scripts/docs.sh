#!/usr/bin/env bash
# Builds the API reference of every public product as DocC archives, offline, with the
# toolchain's own tools: the symbol graphs come from `swift symbolgraph-extract` over the debug
# build's modules (built here when missing, the build CI has already made), then
# `docc convert` turns each product's catalog, Sources/<Module>/<Module>.docc, into
# .build/docs/<Module>.doccarchive with --warnings-as-errors. Before that, the symbol graphs
# are read for public symbols without a doc comment (scripts/docs-coverage.py): one is an error
# (docs/decisions/0126-the-api-reference-is-docc-built-from-the-debug-build.md).
#
#   scripts/docs.sh               every product
#   scripts/docs.sh Tracking ...  only these
#
# To read one: serve the archive's folder with any static web server, or run `docc preview` on
# the catalog with --additional-symbol-graph-dir .build/docs/symbol-graphs/<Module> (README,
# "API reference").
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh

products=(CrashReporter Tracking TrackingEventsAPI TrackingTestKit CrashReporterLogging CrashReporterLifecycle
    CrashReportFormat)
if [ $# -gt 0 ]; then products=("$@"); fi

docc="$(dirname "$(command -v swift)")/docc"
[ -x "$docc" ] || docc="$(command -v docc || true)"
if [ -z "$docc" ]; then
    echo "Error: the toolchain's docc is not found next to swift or on PATH" >&2
    exit 1
fi

# The debug build the tests use; a no-op when it is up to date.
swift build >/dev/null
bin="$(swift build --show-bin-path)"
triple="$(basename "$(dirname "$bin")")"
graphs=.build/docs/symbol-graphs
rm -rf "$graphs"
mkdir -p "$graphs"

status=0
for product in "${products[@]}"; do
    catalog="Sources/$product/$product.docc"
    if [ ! -d "$catalog" ]; then
        echo "Error: $product has no DocC catalog ($catalog)" >&2
        status=1
        continue
    fi
    mkdir -p "$graphs/$product"
    # CZlib is a system library target: its module map stays in Sources/, not in the build.
    swift symbolgraph-extract -module-name "$product" -target "$triple" -I "$bin/Modules" -I "$bin" \
        -minimum-access-level public -output-dir "$graphs/$product" \
        -Xcc -fmodule-map-file=Sources/CZlib/module.modulemap
    python3 scripts/docs-coverage.py "$product" "$graphs/$product" || status=1
    rm -rf ".build/docs/$product.doccarchive"
    "$docc" convert "$catalog" --additional-symbol-graph-dir "$graphs/$product" \
        --output-path ".build/docs/$product.doccarchive" --fallback-display-name "$product" \
        --fallback-bundle-identifier "swift-crash-reporter.$product" --warnings-as-errors | sed '/^$/d' || {
        echo "Error: docc convert failed for $product" >&2
        status=1
    }
done
if [ $status -eq 0 ]; then
    echo "API reference: $(printf '.build/docs/%s.doccarchive ' "${products[@]}")"
fi
exit $status
