#!/usr/bin/env bash
# What the demos share. Sourced by demo.sh, demo-nio.sh and demo-hummingbird.sh.

# Waits (10 s at most) for a "listening on http://…" line in the log file $1 and prints its URL;
# fails with the log on standard error when none comes.
wait_for_url() {
    for _ in $(seq 1 100); do
        if grep -q "listening on http://" "$1" 2>/dev/null; then
            grep -o 'http://[0-9.:]*' "$1" | head -1
            return 0
        fi
        sleep 0.1
    done
    echo "Error: nothing started listening; its log:" >&2
    cat "$1" >&2
    return 1
}

# The example services' demo (demo-nio.sh, demo-hummingbird.sh): builds the service of package
# folder $1 (executable $2, release) with the collector and the CLI; starts the collector;
# starts the service, asks it for / and then for the crashing path $3; relaunches it with the
# collector's URL so that it delivers the report while it serves; prints the delivered report,
# symbolicated. Its files go to .build/demo-$2.
demo_example_service() {
    local example="$1" product="$2" crash_path="$3"
    use_mirrors "$example"
    echo "==> Building $product, crash-collector and crashreport (release)"
    swift build -c release --package-path "$example"
    swift build -c release --product crash-collector
    swift build -c release --product crashreport
    local service bin demo
    service="$(swift build -c release --package-path "$example" --show-bin-path)/$product"
    bin="$(swift build -c release --show-bin-path)"

    demo="$(pwd)/.build/demo-$product"
    rm -rf "$demo"
    mkdir -p "$demo"
    export CRASH_REPORTER_DIR="$demo/state"
    export SWIFT_BACKTRACE=enable=no   # the demo shows our report; Swift's own backtracer would print too

    echo "==> Starting the collector"
    "$bin/crash-collector" --port 0 --data "$demo/collector" > "$demo/collector.log" 2>&1 &
    collector=$!
    trap 'kill $collector 2>/dev/null || true' EXIT
    local collector_url url pid status report id
    collector_url="$(wait_for_url "$demo/collector.log")"
    echo "    $collector_url"

    echo "==> $product: one request, then GET $crash_path"
    "$service" 2> "$demo/service.log" &
    pid=$!
    url="$(wait_for_url "$demo/service.log")"
    echo "    GET $url/ -> $(curl -s "$url/")"
    curl -s -m 10 "$url$crash_path" > /dev/null || true
    set +e
    wait $pid
    status=$?
    set -e
    echo "    $product ended with status $status (128 + signal number); its log:"
    sed 's/^/      /' "$demo/service.log" | tail -4
    report="$(ls "$CRASH_REPORTER_DIR"/pending/*.crash | head -1)"
    id="$(basename "$report" .crash)"
    echo "    it left $report ($(stat -c %s "$report") bytes)"

    echo "==> $product relaunched: it serves, and delivers the report in the background"
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
}
