#!/usr/bin/env bash
# Runs the whole test suite: installs missing system packages, builds the example service
# in release mode too (the crash tests crash both builds: -O code has no frame pointers),
# then `swift test`, one test target group per run. Extra arguments go to every run.
#
# Why several runs: the suites that wait on child processes and sockets and the suites that
# time asynchronous work would otherwise share one process, whose cooperative thread pool is
# as wide as the machine (two threads on a 2-core CI machine). Separate processes keep a busy
# group from starving another.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh

swift build -c release --product crash-test
swift build --build-tests

status=0
for group in \
    'TrackingTests|TrackingEventsAPITests|CrashReporterTests|CrashReportFormatTests|CrashSymbolicationTests|CrashReportSentryTests|CrashReportDeliveryTests|CrashReportToolTests' \
    'CrashCollectorTests' 'CrashReporterHTTPTests' 'IntegrationTests'; do
    echo "==> swift test --filter '$group'"
    CRASH_REPORTER_REQUIRE_RELEASE=1 swift test --skip-build --filter "$group" "$@" || status=1
done
exit $status
