#!/usr/bin/env bash
# OpenTelemetry export end to end (docs/opentelemetry.md), with the local collector as the OTLP
# receiver:
#   1. build the example service and the collector (release);
#   2. start the collector, whose POST /v1/logs takes OTLP logs;
#   3. crash the service, then relaunch it with OpenTelemetry's standard variables (a planted
#      host.name among the resource attributes): it exports the report as a log record,
#      protobuf first, then a second crash as OTLP/JSON;
#   4. print the stored records as the collector lists them (GET /api/logs): severity FATAL,
#      exception.type/message/stacktrace, no host.name.
# Usage: scripts/demo.sh otlp [KIND]   (default: force-unwrap).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
source scripts/demo-support.sh

kind="${1:-force-unwrap}"
echo "==> Building crash-test and crash-collector (release)"
swift build -c release --product crash-test
swift build -c release --product crash-collector
bin="$(swift build -c release --show-bin-path)"

demo="$(pwd)/.build/demo-otlp"
rm -rf "$demo"
mkdir -p "$demo"
export CRASH_REPORTER_DIR="$demo/state"
export SWIFT_BACKTRACE=enable=no

echo "==> Starting the collector (the OTLP receiver)"
"$bin/crash-collector" --port "${DEMO_PORT:-0}" --data "$demo/collector" > "$demo/collector.log" 2>&1 &
collector=$!
url="$(wait_for_url "$demo/collector.log")" || { kill "$collector" 2>/dev/null || true; exit 1; }
echo "    $url (pid $collector)"

export OTEL_EXPORTER_OTLP_ENDPOINT="$url"
export OTEL_SERVICE_NAME=orders
export OTEL_EXPORTER_OTLP_HEADERS="x-api-key=demo-key"
export OTEL_RESOURCE_ATTRIBUTES="host.name=$(hostname),team=payments,service.instance.id=pod-7f9c"
for protocol in http/protobuf http/json; do
    echo "==> crash-test crash $kind, then crash-test run with OTEL_EXPORTER_OTLP_PROTOCOL=$protocol"
    set +e
    "$bin/crash-test" crash "$kind" 2> /dev/null
    set -e
    OTEL_EXPORTER_OTLP_PROTOCOL="$protocol" "$bin/crash-test" run
done

echo "==> The log records at the collector (GET $url/api/logs)"
curl -s "$url/api/logs" | python3 -c '
import json, sys
listing = json.load(sys.stdin)
print("    %d record(s)" % listing["count"])
for record in listing["records"]:
    attributes = record["attributes"]
    print()
    print("    severity      %s (%s), event %s" % (record["severity_text"], record["severity_number"], record["event_name"]))
    print("    body          %s" % record["body"])
    print("    resource      %s" % ", ".join("%s=%s" % item for item in sorted(record["resource"].items())))
    print("    exception     %s: %s" % (attributes.get("exception.type"), attributes.get("exception.message")))
    print("    report id     %s" % attributes.get("swift_crash_reporter.report.id"))
    print("    signature     %s" % attributes.get("swift_crash_reporter.signature"))
    print("    stacktrace    " + "\n                  ".join(attributes.get("exception.stacktrace", "").splitlines()[:6]))
'
echo
echo "No host.name above: it was in OTEL_RESOURCE_ATTRIBUTES and is never sent (docs/opentelemetry.md)."
echo "The collector's page: $url/   Stop it with: kill $collector"
