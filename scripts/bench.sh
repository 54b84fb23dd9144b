#!/usr/bin/env bash
# Builds the benchmarks and the example service in release mode and runs every comparison side
# by side (with sentry-native's rows beside ours, scripts/build-peer.sh), then the executor watch
# under load (Benchmarks/pool-watch-load.py: the SwiftNIO example, the watch on and off), then the footprint comparison (Benchmarks/Footprint: a SwiftNIO service with and
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

# Quiet builds; a failing one is run again to show why.
quietly() { "$@" >/dev/null 2>&1 || "$@"; }
quick=0
for argument in "$@"; do [ "$argument" = "--quick" ] && quick=1; done

echo
echo "## The executor watch under load"
echo
use_mirrors Examples/NIOService
quietly swift build -c release --package-path Examples/NIOService
if [ "$quick" = 1 ]; then load_runs=(3 1000); else load_runs=(7 3000); fi
python3 Benchmarks/pool-watch-load.py Examples/NIOService/.build/release/nio-service "${load_runs[@]}"

echo
echo "## Footprint"
echo
use_mirrors Benchmarks/Footprint
footprint=Benchmarks/Footprint
quietly swift build -c release --package-path "$footprint"
for product in plain-service reporter-service; do
    quietly swift build -c release --package-path "$footprint" --static-swift-stdlib \
        --scratch-path "$footprint/.build/static" --product "$product"
done
runs=30
[ "$quick" = 1 ] && runs=5
"$footprint/.build/release/footprint" "$footprint/.build/release/plain-service" "$footprint/.build/release/reporter-service" \
    "$footprint/.build/static/release/plain-service" "$footprint/.build/static/release/reporter-service" --runs "$runs"
