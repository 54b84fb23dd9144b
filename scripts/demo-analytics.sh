#!/usr/bin/env bash
# The analytics consent story once per backend, offline: the same crash-test events go to the
# events API, to TelemetryDeck and to PostHog, each time through the local collector, which
# stands in for all three (docs/collector.md). For each backend, from a fresh state directory:
#   1. consent unknown: `crash-test run` sends nothing;
#   2. `consent analytics grant`, then `run`: analytics_opted_in and the run's events arrive;
#   3. `consent analytics deny`: the opt-out event arrives, the queue and the install id are gone.
# Only the environment differs between the three: the provider is picked from it in one line of
# crash-test (Examples/CrashTest/Sources/Analytics.swift). Usage: scripts/demo.sh analytics
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
source scripts/demo-support.sh

echo "==> Building crash-test and crash-collector (release)"
swift build -c release --product crash-test
swift build -c release --product crash-collector
bin="$(swift build -c release --show-bin-path)"

demo="$(pwd)/.build/demo-analytics"
rm -rf "$demo"
mkdir -p "$demo"
export SWIFT_BACKTRACE=enable=no CRASH_TEST_FLUSH_SECONDS=1

echo "==> Starting the collector"
"$bin/crash-collector" --port "${DEMO_PORT:-0}" --data "$demo/collector" --events-write-key demo-key \
    > "$demo/collector.log" 2>&1 &
collector=$!
trap 'kill "$collector" 2>/dev/null || true' EXIT
url="$(wait_for_url "$demo/collector.log")" || exit 1
echo "    $url (pid $collector)"

events() { curl -s "$url/api/events" 2>/dev/null || echo '?'; }

for backend in events-api telemetrydeck posthog; do
    echo "==> $backend"
    unset EVENTS_API_URL EVENTS_WRITE_KEY TELEMETRYDECK_APP_ID TELEMETRYDECK_URL POSTHOG_API_KEY POSTHOG_HOST
    case "$backend" in
        events-api) export EVENTS_API_URL="$url/v1" EVENTS_WRITE_KEY=demo-key ;;
        telemetrydeck) export TELEMETRYDECK_APP_ID=DEMO-APP TELEMETRYDECK_URL="$url" ;;
        posthog) export POSTHOG_API_KEY=demo-key POSTHOG_HOST="$url" ;;
    esac
    export CRASH_REPORTER_DIR="$demo/state-$backend"
    "$bin/crash-test" run > /dev/null
    echo "    analytics unknown: $(events)"
    "$bin/crash-test" consent analytics grant
    "$bin/crash-test" run > /dev/null
    echo "    after grant:       $(events)"
    "$bin/crash-test" consent analytics deny
    echo "    after deny:        $(events)"
    echo "    state directory now: $(cd "$CRASH_REPORTER_DIR" && ls | tr '\n' ' ')"
done
echo
echo "Each backend's events, as the collector stored them: $demo/collector/events/events.jsonl"
