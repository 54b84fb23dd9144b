#!/usr/bin/env bash
# What the demos share. Sourced by demo.sh, demo-nio.sh, demo-hummingbird.sh and demo-vapor.sh.

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

# Empties the demo folder $1 and points the reporter's state at $1/state; Swift's own
# backtracer is off (the demo shows our report; it would print too).
demo_folder() {
    rm -rf "$1"
    mkdir -p "$1"
    export CRASH_REPORTER_DIR="$1/state"
    export SWIFT_BACKTRACE=enable=no
}

# Starts the collector $1 with its data in $2/collector and the extra arguments after them;
# sets `collector` (its pid) and `collector_url`, or fails with its log.
start_collector() {
    local tool="$1" folder="$2"
    shift 2
    echo "==> Starting the collector"
    "$tool" --data "$folder/collector" "$@" > "$folder/collector.log" 2>&1 &
    collector=$!
    collector_url="$(wait_for_url "$folder/collector.log")" || { kill "$collector" 2>/dev/null || true; return 1; }
    echo "    $collector_url (pid $collector)"
}

# The example services' demo (demo-nio.sh, demo-hummingbird.sh, demo-vapor.sh): builds the
# service of package folder $1 (executable $2, release) with the collector and the CLI; starts
# the collector; starts the service, asks it for /, then for the paths after $3, then for the
# crashing path $3; relaunches it with the collector's URL so that it delivers the report while it
# serves; prints the delivered report, symbolicated. Its files go to .build/demo-$2.
demo_example_service() {
    local example="$1" product="$2" crash_path="$3"
    shift 3
    use_mirrors "$example"
    echo "==> Building $product, crash-collector and crashreport (release)"
    swift build -c release --package-path "$example"
    swift build -c release --product crash-collector
    swift build -c release --product crashreport
    local service bin demo
    service="$(swift build -c release --package-path "$example" --show-bin-path)/$product"
    bin="$(swift build -c release --show-bin-path)"

    demo="$(pwd)/.build/demo-$product"
    demo_folder "$demo"
    start_collector "$bin/crash-collector" "$demo" --port 0
    trap 'kill $collector 2>/dev/null || true' EXIT
    local url pid status report id

    local requests="one request"
    [ $# -gt 0 ] && requests="$(($# + 1)) requests"
    echo "==> $product: $requests, then GET $crash_path"
    "$service" 2> "$demo/service.log" &
    pid=$!
    url="$(wait_for_url "$demo/service.log")"
    echo "    GET $url/ -> $(curl -s "$url/")"
    local path
    for path in "$@"; do
        echo "    GET $url$path -> $(curl -s "$url$path")"
    done
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
