#!/usr/bin/env bash
# The C core's crash tests on arm64, under emulation (docs/signal-safety.md, "Under qemu-user").
# Builds CShims/ and the crash driver (Tests/AArch64/) for aarch64 with the toolchain's clang
# (the compiler SwiftPM builds the core with) at -O2 without frame pointers, runs each test's
# child under qemu-user, reads every report back on the host with `crashreport show` and
# `crashreport show --json` and asserts on them (Tests/AArch64/check_reports.py). Prints one
# `pass <test>` or `FAIL <test>: <why>` line per test and `N passed, M failed` last; exits 1
# when any failed.
#
# Kept for review under .build/aarch64: the driver (crash-driver), and for each test
# reports/<test>/ with the report, its `show` and `show --json` output, the child's stdout and
# stderr and how it ended, with and without the reporter.
#
# Installs what it needs when missing, as ensure-deps.sh does: qemu-user, the cross linker and
# C library (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross), and arm64 zlib through multiarch
# (zlib1g-dev:arm64, which brings libc6:arm64: the emulated programs run on that C library, from
# /lib/aarch64-linux-gnu, and never on the cross package's, whose loader does not match it).
set -euo pipefail
ulimit -c 0 # the emulator writes a core file of each crashed child otherwise
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
needed=(qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross zlib1g-dev:arm64)
missing=()
for package in "${needed[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]}…" >&2
    export DEBIAN_FRONTEND=noninteractive
    dpkg --print-foreign-architectures | grep -qx arm64 || $sudo dpkg --add-architecture arm64
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

out=.build/aarch64
rm -rf "$out/obj" "$out/reports" "$out/state"
mkdir -p "$out/obj" "$out/reports" "$out/state"
flags=(--target=aarch64-linux-gnu -O2 -fomit-frame-pointer -D_GNU_SOURCE -ICShims/include -Wall -Werror)
pids=()
for source in CShims/*.c Tests/AArch64/crash_driver.c Tests/AArch64/async_functions.S; do
    name=$(basename "$source")
    clang "${flags[@]}" -c "$source" -o "$out/obj/${name%.*}.o" &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
# -rdynamic: the driver's swift_task_getCurrent is found with dlsym, as the runtime's is.
clang --target=aarch64-linux-gnu -rdynamic -Wl,--build-id -o "$out/crash-driver" "$out"/obj/*.o \
    /usr/lib/aarch64-linux-gnu/libz.a -lpthread -ldl
# The allocation probe (scripts/crash-path-probe), for aarch64 too.
clang --target=aarch64-linux-gnu -shared -fPIC -O1 -o "$out/probe.so" scripts/crash-path-probe/probe.c -ldl
clang --target=aarch64-linux-gnu -O0 -o "$out/probe-self-test" scripts/crash-path-probe/allocating_handler.c -lpthread

# The host's reader.
swift build --product crashreport >/dev/null
crashreport=$(swift build --show-bin-path)/crashreport

# run <test> <name> [env...]: the child with the reporter (its state in state/<name>) and, for
# a crash test, without it, each under the emulator with a time bound and the environment given.
run() {
    local test=$1 name=$2
    shift 2
    local dir="$out/reports/$name" state="$out/state/$name"
    mkdir -p "$dir"
    # In a subshell whose stderr is dropped: bash's own line about each child killed by a signal.
    (set +e; env "$@" timeout -s KILL 120 qemu-aarch64 "$out/crash-driver" "$test" "$state" \
        >"$dir/stdout.txt" 2>"$dir/stderr.txt"; echo $? >"$dir/status-with-reporter") 2>/dev/null
    if [ "$test" != snapshot ]; then
        (set +e; env "$@" timeout -s KILL 120 qemu-aarch64 "$out/crash-driver" "$test" >/dev/null 2>&1
            echo $? >"$dir/status-without-reporter") 2>/dev/null
    fi
    local report
    for report in "$state"/pending/*.crash; do
        [ -e "$report" ] || continue
        cp "$report" "$dir/"
        "$crashreport" show "$report" >"$dir/show.txt" 2>&1 || echo "show failed: $?" >>"$dir/show.txt"
        "$crashreport" show --json "$report" >"$dir/report.json" 2>"$dir/show-json.stderr" || true
    done
}

tests=(segv bus abort brk overflow-thread threads snapshot breadcrumbs async-record async-register async-damaged)
for test in "${tests[@]}"; do run "$test" "$test"; done
# A main thread of 1 MiB instead of 8 (the driver gives its overflowing thread 1 MiB too): the
# emulated walk of half a million 16-byte frames took 8 s on a loaded machine, near the report's
# 10 s watchdog.
run overflow-main overflow-main QEMU_STACK_SIZE=1048576
# The probe: a SIGSEGV and an abort(), a crash with three parked threads captured, a snapshot.
for test in segv abort threads snapshot; do
    run "$test" "probe-$test" QEMU_SET_ENV="LD_PRELOAD=$out/probe.so,CRASH_PATH_PROBE_LOG=$out/reports/probe-$test/probe.log"
done
mkdir -p "$out/reports/probe-self-test"
(set +e; QEMU_SET_ENV="LD_PRELOAD=$out/probe.so,CRASH_PATH_PROBE_LOG=$out/reports/probe-self-test/probe.log" \
    timeout -s KILL 120 qemu-aarch64 "$out/probe-self-test" altstack >/dev/null 2>&1
    echo $? >"$out/reports/probe-self-test/status-with-reporter") 2>/dev/null

nm_symbols="$out/crash-driver.symbols"
aarch64-linux-gnu-nm -S --defined-only "$out/crash-driver" >"$nm_symbols"
exec python3 Tests/AArch64/check_reports.py "$out" "$nm_symbols"
