#!/usr/bin/env bash
# The second demo (`scripts/demo.sh nio`): the SwiftNIO example service (Examples/NIOService)
#   1. is built (release), with the collector and the CLI;
#   2. starts, answers a request, and crashes through another: GET /crash/KIND on an event loop;
#   3. is relaunched: while it serves, it delivers the report to the local collector;
#   4. the delivered report is printed, symbolicated: the NIO pipeline down to the thread entry,
#      the event loop's thread name, and the request's breadcrumbs and log lines.
# Usage: scripts/demo.sh nio [KIND]   (force-unwrap, fatal-error, null-write or recursion;
# default force-unwrap). Installs missing system packages first; offline, the Swift packages come
# from SWIFTPM_MIRRORS (docs/testing.md, "What a fresh machine needs").
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
source scripts/demo-support.sh

kind="${1:-force-unwrap}"
demo_example_service Examples/NIOService nio-service "/crash/$kind"
