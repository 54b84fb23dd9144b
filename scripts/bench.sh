#!/usr/bin/env bash
# Builds the benchmarks and the example service in release mode and runs every comparison side
# by side (with sentry-native's rows beside ours, scripts/build-peer.sh), then the footprint comparison (Benchmarks/Footprint: a SwiftNIO service with and
# without the reporter, dynamic and --static-swift-stdlib). Pass --quick for a short run.
#
# The footprint package depends on SwiftNIO: offline, SwiftPM takes it from the mirrors
# (SWIFTPM_MIRRORS; see scripts/ensure-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
swift build -c release --product crash-test
swift build -c release --product crash-collector
swift build -c release --product crashreport
swift build -c release --product crash-reporter-benchmarks
# The peer (sentry-native) beside us: built once into .build/peer; without ../shared the benchmark
# says so and skips its rows.
scripts/build-peer.sh >/dev/null
.build/release/crash-reporter-benchmarks "$@"

echo
echo "## Footprint"
echo
use_mirrors Benchmarks/Footprint
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
