#!/usr/bin/env bash
# The fourth demo (`scripts/demo.sh vapor`): the Vapor 4 example service (Examples/VaporService)
#   1. is built (release), with the collector and the CLI;
#   2. starts, answers two requests (one of them GET /users/bob@example.com/orders/1234), and
#      crashes through another: GET /crash/await by default, whose async route awaits level1,
#      which awaits level2, which awaits level3, which sleeps, resumes on a thread of the
#      concurrency pool and reads past the end of an array;
#   3. is relaunched: while it serves, it delivers the report to the local collector, and stops
#      delivery on Vapor's shutdown (SIGTERM);
#   4. the delivered report is printed, symbolicated: level3 on the crashing pool thread, the
#      awaiting functions down to Vapor's responder after it, and one breadcrumb per request and
#      response naming the route's pattern (/users/:email/orders/:id), never the path.
# Usage: scripts/demo.sh vapor [ROUTE]   (await, sync or future: the async route, the synchronous
# route on the event loop, or the EventLoopFuture chain; default await). Installs missing system
# packages first; offline, the Swift packages come from SWIFTPM_MIRRORS (docs/testing.md, "What
# a fresh machine needs").
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
source scripts/demo-support.sh

route="${1:-await}"
demo_example_service Examples/VaporService vapor-service "/crash/$route" /users/bob@example.com/orders/1234
