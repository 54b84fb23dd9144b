#!/usr/bin/env bash
# Builds the fuzz targets (Fuzz/Targets, docs/fuzzing.md) with libFuzzer and AddressSanitizer and
# runs one of them, or each in turn, for SECONDS (default 30) each:
#   scripts/fuzz.sh [TARGET|all] [SECONDS] [extra libFuzzer flags...]
# Each run starts from the committed corpus Fuzz/Corpus/<target> (and Fuzz/Regressions/<target>) and writes what it learns to a
# scratch copy under .build/fuzz/corpus/<target>, so the repository is left alone; crashes,
# time-outs, leaks and out-of-memory inputs go to .build/fuzz/artifacts/<target>/. The run fails
# when a target finds anything. FUZZ_JOBS=2 runs two targets at once; FUZZ_MERGE=1 minimises the
# scratch corpus back into Fuzz/Corpus/<target> afterwards (-merge=1), for committing.
# FUZZ_CONFIGURATION=debug builds faster and runs slower (CI's short runs use it); release is
# the default.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh

targets=(FuzzReportReader FuzzHTTPRequest FuzzSentryEnvelope FuzzEventsBatch FuzzOTLPLogs FuzzSentryDSN FuzzRetryHeaders FuzzScrubber
    FuzzJSONWriter FuzzLoggedReports)
which="${1:-all}"
seconds="${2:-30}"
shift $(( $# > 2 ? 2 : $# ))
if [ "$which" != all ]; then
    found=0
    for target in "${targets[@]}"; do [ "$target" = "$which" ] && found=1; done
    if [ $found = 0 ]; then
        echo "Error: no fuzz target $which; the targets are: ${targets[*]}" >&2
        exit 2
    fi
    targets=("$which")
fi

# One build for every target, in a scratch directory of its own. SwiftPM's --sanitize=fuzzer links
# libFuzzer (which brings main); the -Xswiftc flag is what instruments the Swift code for it.
scratch=.build/fuzz
export CRASH_REPORTER_FUZZ=1
configuration="${FUZZ_CONFIGURATION:-release}"
build_flags=(-c "$configuration" --scratch-path "$scratch/build" --sanitize=fuzzer --sanitize=address
    -Xswiftc -sanitize=fuzzer,address)
mkdir -p "$scratch"
for target in "${targets[@]}"; do
    # The linker's warnings about ASan's local symbols are noise; the log is shown on failure.
    if ! swift build "${build_flags[@]}" --product "$target" >"$scratch/build.log" 2>&1; then
        grep -v "Cannot export local symbol" "$scratch/build.log" >&2
        echo "error: the fuzz build of $target failed" >&2
        exit 1
    fi
done
bin="$(swift build "${build_flags[@]}" --show-bin-path)"

# Bounds: a run fails on an input that takes over 10 s, on a single allocation over 512 MB and
# when the process passes 2 GB.
run_target() {
    local target="$1"
    shift
    local corpus="$scratch/corpus/$target" artifacts="$scratch/artifacts/$target"
    mkdir -p "$corpus" "$artifacts" "Fuzz/Corpus/$target"
    # The inputs of past findings (Fuzz/Regressions, each also a unit test) are seeds too.
    local seeds=("Fuzz/Corpus/$target")
    [ -d "Fuzz/Regressions/$target" ] && seeds+=("Fuzz/Regressions/$target")
    echo "==> $target for ${seconds}s"
    local status=0
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}" \
        "$bin/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" "$corpus" "${seeds[@]}" \
        >"$scratch/$target.log" 2>&1 || status=$?
    grep -E "^(stat::|Done|#[0-9]+[[:space:]]+DONE)" "$scratch/$target.log" || true
    if [ $status != 0 ]; then
        echo "error: $target found something (log: $scratch/$target.log, inputs: $artifacts/)" >&2
        grep -E "ERROR|SUMMARY|Fatal error|Precondition" "$scratch/$target.log" | head -5 >&2 || true
        return 1
    fi
    if [ "${FUZZ_MERGE:-0}" = 1 ]; then
        local merged="$scratch/merged/$target"
        rm -rf "$merged" && mkdir -p "$merged"
        SWIFT_BACKTRACE=enable=no "$bin/$target" -merge=1 "$merged" "Fuzz/Corpus/$target" "$corpus" \
            >"$scratch/$target.merge.log" 2>&1
        rm -rf "Fuzz/Corpus/$target" && mv "$merged" "Fuzz/Corpus/$target"
    fi
}

status=0
pids=()
for target in "${targets[@]}"; do
    if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then
        run_target "$target" "$@" &
        pids+=($!)
        if [ ${#pids[@]} -ge "$FUZZ_JOBS" ]; then
            wait "${pids[0]}" || status=1
            pids=("${pids[@]:1}")
        fi
    else
        run_target "$target" "$@" || status=1
    fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
