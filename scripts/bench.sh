#!/usr/bin/env bash
# Builds the benchmarks and the example service in release mode and runs every comparison side
# by side (with sentry-native's rows beside ours, scripts/build-peer.sh), then the executor watch
# under load (Benchmarks/pool-watch-load.py: the SwiftNIO example, the watch on and off), the
# reporter's cost per request in the Vapor example (Benchmarks/vapor-load.py: the reporter on and
# off), the next launch after a crash (Benchmarks/next-launch.py: the Hummingbird and Vapor
# examples in release, a report pending or not), then the footprint comparison
# (Benchmarks/Footprint: a SwiftNIO service with and without the reporter, dynamic and
# --static-swift-stdlib), and the crash table checked by another program (Benchmarks/crash-check.py).
# Pass --quick for a short run, or one of
# crash-reporter-benchmarks' modes (--start-only, --crash-only, …) for a part of it.
#
# Everything the run prints goes into one page, docs/benchmarks.md (Benchmarks/benchmarks-page.py
# fills Benchmarks/benchmarks.template.md: the date, the machine, the commit, each target of issue 20
# met or missed, every table) and the README's summary of it. A --quick run writes the page too
# and says so in its first line, but leaves the README alone; a mode's run writes
# .build/benchmarks.md and leaves both alone.
#
# The footprint package depends on SwiftNIO and the Vapor example on Vapor: offline, SwiftPM takes
# them from the mirrors (SWIFTPM_MIRRORS; see scripts/ensure-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
swift build -c release --product crash-test
swift build -c release --product crash-collector
swift build -c release --product crashreport
swift build -c release --product crash-reporter-benchmarks
# The peer (sentry-native) beside us: built once into .build/peer; without ../shared the benchmark
# says so and skips its rows.
scripts/build-peer.sh >/dev/null

# Quiet builds; a failing one is run again to show why (on stderr: stdout is the page's).
quietly() { "$@" >/dev/null 2>&1 || "$@" >&2; }
quick=0
mode=
for argument in "$@"; do
    [ "$argument" = "--quick" ] && quick=1
    case "$argument" in --*-only) mode="$argument" ;; esac
done
page=docs/benchmarks.md
[ -n "$mode" ] && page=.build/benchmarks.md
log=.build/benchmarks.log
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

measure() {
    # The run: every table, under the headings the template explains.
    .build/release/crash-reporter-benchmarks "$@"

    # The crash table checked by another program (Benchmarks/crash-check.py), when the peer is built.
    if [ -z "$mode" ] || [ "$mode" = "--crash-only" ]; then
        if [ -x .build/peer/bin/peer-bench ]; then
            echo
            echo "## The crash benchmark checked from outside"
            echo
            python3 Benchmarks/crash-check.py .build/release/crash-test .build/peer/bin \
                --rounds "$([ "$quick" = 1 ] && echo 5 || echo 40)"
        fi
    fi
    # A mode's run is that part only.
    if [ -n "$mode" ]; then return 0; fi

    echo
    echo "## The executor watch under load"
    echo
    use_mirrors Examples/NIOService
    quietly swift build -c release --package-path Examples/NIOService
    if [ "$quick" = 1 ]; then load_runs=(3 1000); else load_runs=(7 3000); fi
    python3 Benchmarks/pool-watch-load.py Examples/NIOService/.build/release/nio-service "${load_runs[@]}"

    echo
    echo "## The Vapor example under load"
    echo
    use_mirrors Examples/VaporService
    quietly swift build -c release --package-path Examples/VaporService
    python3 Benchmarks/vapor-load.py Examples/VaporService/.build/release/vapor-service "${load_runs[@]}"

    echo
    echo "## The next launch after a crash"
    echo
    # The example services in release, each crashed once, then relaunched with its report pending
    # and with nothing pending, interleaved (Benchmarks/next-launch.py).
    use_mirrors Examples/HummingbirdService Examples/VaporService
    services=()
    for example in HummingbirdService:hummingbird-service VaporService:vapor-service; do
        quietly swift build -c release --package-path "Examples/${example%%:*}"
        services+=("Examples/${example%%:*}/.build/release/${example##*:}")
    done
    python3 Benchmarks/next-launch.py .build/release/crashreport .build/release/crash-reporter-benchmarks \
        "$([ "$quick" = 1 ] && echo 2 || echo 5)" "${services[@]}"

    echo
    echo "## Footprint"
    echo
    use_mirrors Benchmarks/Footprint
    footprint=Benchmarks/Footprint
    quietly swift build -c release --package-path "$footprint"
    for product in plain-service reporter-service; do
        quietly swift build -c release --package-path "$footprint" --static-swift-stdlib \
            --scratch-path "$footprint/.build/static" --product "$product"
    done
    runs=30
    [ "$quick" = 1 ] && runs=5
    "$footprint/.build/release/footprint" "$footprint/.build/release/plain-service" "$footprint/.build/release/reporter-service" \
        "$footprint/.build/static/release/plain-service" "$footprint/.build/static/release/reporter-service" --runs "$runs"
}
measure "$@" | tee "$log"

page_options=(--commit "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . 2>/dev/null || echo ', with changes not committed')"
    --load-before "$load_before" --load-after "$(cut -d' ' -f1-3 /proc/loadavg)")
[ "$quick" = 1 ] && page_options+=(--quick)
[ -n "$mode" ] && page_options+=("--mode=$mode")
# Only a full run rewrites the README's summary of it.
[ "$quick" = 0 ] && [ -z "$mode" ] && page_options+=(--readme README.md)
python3 Benchmarks/benchmarks-page.py Benchmarks/benchmarks.template.md "$log" "$page" "${page_options[@]}"
