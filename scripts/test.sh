#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs missing system packages, checks that no type
# name is declared in two modules (scripts/check-type-names.sh), runs the C core's crash tests on
# arm64 under qemu-user (scripts/test-aarch64.sh), checks once built that the
# products' public API names no type of a module outside them (scripts/check-public-api.sh),
# builds `crash-test` in release too (the crash tests crash both builds: -O code has no frame
# pointers) and the three example services in debug, runs `swift test` one group of test
# targets per run, then the sanitizer runs (scripts/sanitizers.sh: ThreadSanitizer over the
# unit tests, AddressSanitizer and UndefinedBehaviorSanitizer over the C core and the crash
# tests). Extra arguments go to every `swift test`; CRASH_REPORTER_SKIP_SANITIZERS=1 leaves the
# sanitizer runs out. Each step's output
# is also kept in .build/test-logs, and the run ends with a summary: the steps that failed and
# their failing tests' lines.
#
# Why several runs: the suites that wait on child processes and sockets and the suites that
# time asynchronous work would otherwise share one process, whose cooperative thread pool is
# as wide as the machine (two threads on a 2-core CI machine). Separate processes keep a busy
# group from starving another.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh

# Lint, before anything builds: each top-level type name declared in one module only.
bash scripts/check-type-names.sh

# The C core's crash tests on arm64 under qemu-user, first: they need no Swift build but the
# reader's (docs/signal-safety.md, "arm64, under qemu-user"). A failure fails the run at the end.
logs=.build/test-logs
rm -rf "$logs" && mkdir -p "$logs"
aarch64_status=0
bash scripts/test-aarch64.sh 2>&1 | tee "$logs/aarch64.log" || aarch64_status=1

swift build -c release --product crash-test
swift build --build-tests
# Lint, on the build: the products' public API names only types a user can name.
bash scripts/check-public-api.sh
# The example services' packages, built here rather than by the first test that starts them, so
# that their builds do not run beside the integration tests that time child processes.
use_mirrors Examples/NIOService Examples/HummingbirdService Examples/VaporService
swift build --package-path Examples/NIOService
swift build --package-path Examples/HummingbirdService
# In debug too (docs/decisions/0178-the-tests-extra-builds-are-debug-builds.md).
swift build --package-path Examples/VaporService

source scripts/test-groups.sh
status=0
# What failed, said again at the very end: CI shows a run's last lines, and the step that failed
# may have printed long before them.
failed_steps=()
step=0
for group in "$unit_tests" "$integration_tests" 'CrashCollectorTests' 'IntegrationTests'; do
    echo "==> swift test --filter '$group'"
    step=$((step + 1))
    if ! CRASH_REPORTER_REQUIRE_RELEASE=1 swift test --skip-build --filter "$group" "$@" 2>&1 | tee "$logs/group-$step.log"; then
        status=1
        failed_steps+=("swift test --filter '$group'")
    fi
done
# The API reference (DocC) of every public product from the debug build above: a public symbol
# without a doc comment, or any DocC warning, fails the run (scripts/docs.sh).
echo "==> scripts/docs.sh"
bash scripts/docs.sh || { status=1; failed_steps+=("scripts/docs.sh"); }
# Every fuzz target for 10 s, two at a time, from its committed corpus and past findings
# (docs/fuzzing.md): a parser change that crashes on any of them, or soon after, fails the run.
echo "==> scripts/fuzz.sh all 10"
FUZZ_JOBS=2 FUZZ_CONFIGURATION=debug bash scripts/fuzz.sh all 10 || { status=1; failed_steps+=("scripts/fuzz.sh"); }
if [ "${CRASH_REPORTER_SKIP_SANITIZERS:-0}" != 1 ]; then
    bash scripts/sanitizers.sh "$@" 2>&1 | tee "$logs/sanitizers.log" || { status=1; failed_steps+=("scripts/sanitizers.sh"); }
fi
if [ "$aarch64_status" -ne 0 ]; then
    status=1
    failed_steps+=("scripts/test-aarch64.sh")
fi
echo "==> summary"
if [ "$status" -eq 0 ]; then
    echo "every step passed"
else
    echo "failed: ${failed_steps[*]}"
    # The failing tests' lines, from every swift test run above (at most 40).
    grep -h "✘\|^FAIL" "$logs"/*.log 2>/dev/null | grep -v "^✘ Test run" | head -40 || true
fi
exit $status
