#!/usr/bin/env bash
# The sanitizer runs CI makes after the test suite (docs/testing.md, "Sanitizers"):
#   1. ThreadSanitizer over every module's own tests (the integrations' included), one target
#      at a time, the way a service that links the reporter runs its suite with
#      `swift test --sanitize=thread`;
#   2. AddressSanitizer and UndefinedBehaviorSanitizer over the C core's tests and the crash
#      tests, which crash real children built with both sanitizers.
# Each build has a scratch directory of its own (.build/tsan, .build/asan), so the normal build is
# left alone. Extra arguments go to every `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh

source scripts/test-groups.sh
status=0

swift build --build-tests --sanitize=thread --scratch-path .build/tsan
# One process per test target: instrumented code runs several times slower, and a target whose
# exit tests re-launch the test binary would otherwise starve another's timers of the
# cooperative pool. A report fails the run: TSan makes the process exit with 66 at the end.
for target in ${unit_tests//|/ } ${integration_tests//|/ }; do
    echo "==> ThreadSanitizer: swift test --sanitize=thread --filter '$target'"
    TSAN_OPTIONS="exitcode=66 ${TSAN_OPTIONS:-}" \
        swift test --skip-build --sanitize=thread --scratch-path .build/tsan --filter "$target" "$@" || status=1
done

echo "==> AddressSanitizer + UndefinedBehaviorSanitizer: swift test --filter '$crash_tests'"
swift build --build-tests --sanitize=address -Xcc -fsanitize=undefined --scratch-path .build/asan
# The crash tests compare how a child dies with and without the reporter: ASan's own handlers for
# the deadly signals would turn every crash into its exit code 1, so the children leave them to
# the reporter. Leak detection is off: the Swift runtime keeps metadata caches for the process's
# lifetime. UBSan stops at the first finding. CRASH_REPORTER_SANITIZER tells the tests which
# sanitizer runs (Swift's own backtracer reads other stacks in a way ASan reports).
CRASH_REPORTER_SANITIZER=address \
ASAN_OPTIONS="handle_segv=0:handle_sigbus=0:handle_abort=0:handle_sigill=0:handle_sigfpe=0:detect_leaks=0:abort_on_error=0 ${ASAN_OPTIONS:-}" \
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1 ${UBSAN_OPTIONS:-}" \
    swift test --skip-build --sanitize=address -Xcc -fsanitize=undefined --scratch-path .build/asan --filter "$crash_tests" \
    "$@" \
    || status=1
exit $status
