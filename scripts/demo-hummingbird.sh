#!/usr/bin/env bash
# The third demo (`scripts/demo.sh hummingbird`): the Hummingbird 2 example service
# (Examples/HummingbirdService)
#   1. is built (release), with the collector and the CLI;
#   2. starts, answers a request, and crashes through another: GET /crash/await, whose handler
#      awaits level1, which awaits level2, which awaits level3, which sleeps, resumes on a
#      thread of the concurrency pool and reads past the end of an array;
#   3. is relaunched: while it serves, it delivers the report to the local collector;
#   4. the delivered report is printed, symbolicated: level3 on the crashing pool thread (and,
#      where the reporter walks the async context chain, the awaiting functions after it), and
#      the requests' log lines as breadcrumbs, Hummingbird's own among them.
# Usage: scripts/demo.sh hummingbird. Installs missing system packages first; offline, the Swift
# packages come from SWIFTPM_MIRRORS (docs/testing.md, "What a fresh machine needs").
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
source scripts/demo-support.sh

demo_example_service Examples/HummingbirdService hummingbird-service /crash/await
