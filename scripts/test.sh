#!/usr/bin/env bash
# Runs the whole test suite: installs missing system packages, builds the example service
# in release mode too (the crash tests crash both builds: -O code has no frame pointers),
# then `swift test`. Extra arguments go to `swift test` (e.g. --filter CrashKindTests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh

swift build -c release --product crash-test
CRASH_REPORTER_REQUIRE_RELEASE=1 swift test "$@"
