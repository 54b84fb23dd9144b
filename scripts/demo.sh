#!/usr/bin/env bash
# The main job, end to end on this machine: build the example service, crash it, and show
# the report it left. Usage: scripts/demo.sh [KIND]   (default: index-out-of-range;
# `crash-test kinds` lists them all). Installs missing system packages first.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh

kind="${1:-index-out-of-range}"
echo "==> Building crash-test (release: -O code, no frame pointers) and crashreport"
swift build -c release --product crash-test
swift build -c release --product crashreport
bin=.build/release

state="$(pwd)/.build/demo-state"
rm -rf "$state"
export CRASH_REPORTER_DIR="$state"
export SWIFT_BACKTRACE=enable=no   # the demo shows our report; Swift's backtracer would print too

echo "==> crash-test crash $kind"
set +e
"$bin/crash-test" crash "$kind"
status=$?
set -e
echo "    crash-test ended with status $status (128 + signal number)"

report="$(ls -t "$state"/pending/*.crash | head -1)"
echo "==> Report left behind: $report ($(stat -c %s "$report") bytes, gzip-compressed JSON)"
echo
"$bin/crashreport" show "$report"
