#!/usr/bin/env bash
# Builds the benchmarks and the example service in release mode and runs every comparison side
# by side, then the footprint comparison (Benchmarks/Footprint: a SwiftNIO service with and
# without the reporter, dynamic and --static-swift-stdlib). Pass --quick for a short run.
#
# The footprint package depends on SwiftNIO. Offline, point SWIFTPM_MIRRORS at a folder holding
# use-mirrors.sh and the package bundles (this workplace keeps one at ../shared/mirrors, used when
# the variable is unset); otherwise SwiftPM fetches SwiftNIO from GitHub.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
swift build -c release --product crash-test
swift build -c release --product crash-collector
swift build -c release --product crash-reporter-benchmarks
.build/release/crash-reporter-benchmarks "$@"

echo
echo "## Footprint"
echo
mirrors="${SWIFTPM_MIRRORS:-}"
if [ -z "$mirrors" ] && [ -x ../shared/mirrors/use-mirrors.sh ]; then mirrors=../shared/mirrors; fi
if [ -n "$mirrors" ]; then "$mirrors/use-mirrors.sh" Benchmarks/Footprint >/dev/null; fi
footprint=Benchmarks/Footprint
# Quiet builds; a failing one is run again to show why.
quietly() { "$@" >/dev/null 2>&1 || "$@"; }
quietly swift build -c release --package-path "$footprint"
for product in plain-service reporter-service; do
    quietly swift build -c release --package-path "$footprint" --static-swift-stdlib \
        --scratch-path "$footprint/.build/static" --product "$product"
done
runs=30
for argument in "$@"; do [ "$argument" = "--quick" ] && runs=5; done
"$footprint/.build/release/footprint" "$footprint/.build/release/plain-service" "$footprint/.build/release/reporter-service" \
    "$footprint/.build/static/release/plain-service" "$footprint/.build/static/release/reporter-service" --runs "$runs"
