#!/usr/bin/env bash
# Builds the benchmark and the example service in release mode and runs every comparison
# side by side. Pass --quick for a short run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
swift build -c release --product crash-test
swift build -c release --product crash-collector
swift build -c release --product crash-reporter-benchmarks
.build/release/crash-reporter-benchmarks "$@"
