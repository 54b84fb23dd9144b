#!/usr/bin/env bash
# The main job, end to end on this machine:
#   1. build the example service, the collector and the CLI (release: -O code, no frame pointers);
#   2. start the local collector;
#   3. crash the service (`crash-test crash KIND`), which leaves a compressed report;
#   4. relaunch it (`crash-test run`): at start it delivers the report to the collector;
#   5. print the symbolicated report;
#   6. show the two consent regimes: analytics events reach the collector only after
#      `consent analytics grant` (and the opt-out event after `deny`), and a crash-reporting
#      opt-out leaves no report;
#   7. print the URL of the collector's page.
# Usage: scripts/demo.sh [KIND]   (default: index-out-of-range; `crash-test kinds` lists them).
#        scripts/demo.sh nio [KIND]   the SwiftNIO example service instead (scripts/demo-nio.sh).
#        scripts/demo.sh otlp [KIND]  the report as an OpenTelemetry log record (scripts/demo-otlp.sh).
#        scripts/demo.sh analytics    the analytics consent story once per backend: the events
#                                     API, TelemetryDeck and PostHog (scripts/demo-analytics.sh).
#        scripts/demo.sh hummingbird   the Hummingbird example service (scripts/demo-hummingbird.sh).
#        scripts/demo.sh vapor [ROUTE]  the Vapor example service (scripts/demo-vapor.sh).
# Installs missing system packages first. The collector keeps running for you to browse;
# the script prints how to stop it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = nio ]; then shift; exec bash scripts/demo-nio.sh "$@"; fi
if [ "${1:-}" = otlp ]; then shift; exec bash scripts/demo-otlp.sh "$@"; fi
if [ "${1:-}" = analytics ]; then shift; exec bash scripts/demo-analytics.sh "$@"; fi
if [ "${1:-}" = hummingbird ]; then shift; exec bash scripts/demo-hummingbird.sh "$@"; fi
if [ "${1:-}" = vapor ]; then shift; exec bash scripts/demo-vapor.sh "$@"; fi
source scripts/ensure-deps.sh
source scripts/demo-support.sh

kind="${1:-index-out-of-range}"
echo "==> Building crash-test, crash-collector and crashreport (release)"
swift build -c release --product crash-test
swift build -c release --product crash-collector
swift build -c release --product crashreport
bin="$(swift build -c release --show-bin-path)"

demo="$(pwd)/.build/demo"
demo_folder "$demo"
start_collector "$bin/crash-collector" "$demo" --port "${DEMO_PORT:-0}" --events-write-key demo-key
url="$collector_url"

echo "==> crash-test crash $kind"
set +e
"$bin/crash-test" crash "$kind"
status=$?
set -e
echo "    crash-test ended with status $status (128 + signal number)"
report="$(ls -t "$CRASH_REPORTER_DIR"/pending/*.crash | head -1)"
id="$(basename "$report" .crash)"
echo "    it left $report ($(stat -c %s "$report") bytes, gzip-compressed JSON)"

echo "==> crash-test run (relaunch: delivers the pending report to the collector)"
CRASH_REPORTER_URL="$url/api/reports" "$bin/crash-test" run

echo "==> The report, symbolicated (crashreport show $id)"
echo
"$bin/crashreport" show --dir "$CRASH_REPORTER_DIR" "$id"
echo
echo "==> crashreport list"
"$bin/crashreport" list "$CRASH_REPORTER_DIR"
echo
echo "==> Two consent regimes: product analytics are opt-in"
export EVENTS_API_URL="$url/v1" EVENTS_WRITE_KEY=demo-key CRASH_TEST_FLUSH_SECONDS=1
"$bin/crash-test" run > /dev/null
echo "    analytics unknown: events at the collector: $(curl -s "$url/api/events" 2>/dev/null || echo '?')"
"$bin/crash-test" consent analytics grant
"$bin/crash-test" run > /dev/null
echo "    after grant:       events at the collector: $(curl -s "$url/api/events" 2>/dev/null || echo '?')"
"$bin/crash-test" consent analytics deny
echo "    after deny:        events at the collector: $(curl -s "$url/api/events" 2>/dev/null || echo '?')"
echo "    state directory now: $(cd "$CRASH_REPORTER_DIR" && ls | tr '\n' ' ')"
echo "==> Crash reporting is opt-out"
"$bin/crash-test" consent crash-reporting off
set +e
"$bin/crash-test" crash segfault 2> /dev/null
set -e
echo "    after opting out, a crash leaves $(ls "$CRASH_REPORTER_DIR"/pending/*.crash 2>/dev/null | wc -l) pending report(s)"
"$bin/crash-test" consent crash-reporting on > /dev/null

echo
echo "The collector's page: $url/   (this report: $url/reports/$id)"
echo "Stop the collector with: kill $collector"
