#!/usr/bin/env bash
# The second demo (`scripts/demo.sh nio`): the SwiftNIO example service (Examples/NIOService)
#   1. is built (release), with the collector and the CLI;
#   2. starts, answers a request, and crashes through another: GET /crash/KIND on an event loop;
#   3. is relaunched: while it serves, it delivers the report to the local collector;
#   4. the delivered report is printed, symbolicated: the NIO pipeline down to the thread entry,
#      the event loop's thread name, and the request's breadcrumbs and log lines.
# Usage: scripts/demo.sh nio [KIND]   (force-unwrap, fatal-error, null-write or recursion;
# default force-unwrap). Installs missing system packages first; offline, the Swift packages come
# from SWIFTPM_MIRRORS (README, "Two commands").
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
source scripts/demo-support.sh

kind="${1:-force-unwrap}"
example=Examples/NIOService
use_mirrors "$example"
echo "==> Building the NIO example service, crash-collector and crashreport (release)"
swift build -c release --package-path "$example"
swift build -c release --product crash-collector
swift build -c release --product crashreport
service="$(swift build -c release --package-path "$example" --show-bin-path)/nio-service"
bin="$(swift build -c release --show-bin-path)"

demo="$(pwd)/.build/demo-nio"
rm -rf "$demo"
mkdir -p "$demo"
export CRASH_REPORTER_DIR="$demo/state"
export SWIFT_BACKTRACE=enable=no   # the demo shows our report; Swift's own backtracer would print too

echo "==> Starting the collector"
"$bin/crash-collector" --port 0 --data "$demo/collector" > "$demo/collector.log" 2>&1 &
collector=$!
trap 'kill $collector 2>/dev/null || true' EXIT
collector_url="$(wait_for_url "$demo/collector.log")"
echo "    $collector_url"

echo "==> nio-service: one request, then GET /crash/$kind"
"$service" 2> "$demo/service.log" &
pid=$!
url="$(wait_for_url "$demo/service.log")"
echo "    GET $url/ -> $(curl -s "$url/")"
curl -s -m 10 "$url/crash/$kind" > /dev/null || true
set +e
wait $pid
status=$?
set -e
echo "    nio-service ended with status $status (128 + signal number); its log:"
sed 's/^/      /' "$demo/service.log" | tail -4
report="$(ls "$CRASH_REPORTER_DIR"/pending/*.crash | head -1)"
id="$(basename "$report" .crash)"
echo "    it left $report ($(stat -c %s "$report") bytes)"

echo "==> nio-service relaunched: it serves, and delivers the report in the background"
CRASH_REPORTER_URL="$collector_url/api/reports" "$service" 2> "$demo/service2.log" &
pid=$!
url="$(wait_for_url "$demo/service2.log")"
echo "    GET $url/ -> $(curl -s "$url/")"
for _ in $(seq 1 100); do
    [ -e "$CRASH_REPORTER_DIR/delivered/$id.crash" ] && break
    sleep 0.1
done
kill $pid
wait $pid 2>/dev/null || true
echo "    the collector has: $(curl -s "$collector_url/api/reports")"

echo "==> The delivered report, symbolicated (crashreport show $id)"
echo
"$bin/crashreport" show --dir "$CRASH_REPORTER_DIR" "$id"
echo
echo "The collector's page for it: $collector_url/reports/$id (the collector stops with this script)"
