#!/usr/bin/env python3
"""An independent check of the crash benchmark: fault to waitpid from Python, not from
crash-reporter-benchmarks.

The same four programs as the benchmark's crash table (the release crash-test with and without
the reporter, the peer's bare C program and the same with sentry-native 0.16.3, each with 100
breadcrumbs), spawned with os.posix_spawn, interleaved run by run, in three runs of N rounds.
Each program writes the CLOCK_MONOTONIC time just before its fault to descriptor 3; this script
notes the time right after waitpid returns. Each overhead is a run's median over its own bare
program's median in the same run. The benchmark should fall inside the ranges this prints.

Usage: crash-check.py CRASH_TEST PEER_BIN_DIR [--rounds N]
"""
import os
import shutil
import statistics
import struct
import sys
import tempfile
import time


def crash_once(argv, environment):
    """Fault to waitpid of one child, µs; the child's state directory is removed after."""
    state = tempfile.mkdtemp(prefix="crash-check-")
    read_end, write_end = os.pipe()
    env = dict(environment)
    env.update({"CRASH_REPORTER_DIR": state, "CRASH_TEST_FAULT_TIME_FD": "3"})
    argv = [state if part == "{state}" else part for part in argv]
    actions = [
        (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0),
        (os.POSIX_SPAWN_CLOSE, read_end),
        (os.POSIX_SPAWN_DUP2, write_end, 3),
    ]
    try:
        pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
        os.close(write_end)
        os.waitpid(pid, 0)
        reaped = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        faulted = os.read(read_end, 8)
    finally:
        os.close(read_end)
        shutil.rmtree(state, ignore_errors=True)
    if len(faulted) != 8:
        raise RuntimeError(f"{argv[0]} did not say when it faulted")
    return (reaped - struct.unpack("<Q", faulted)[0]) / 1000


def main():
    arguments = sys.argv[1:]
    rounds = 40
    if "--rounds" in arguments:
        index = arguments.index("--rounds")
        rounds = int(arguments[index + 1])
        del arguments[index:index + 2]
    if len(arguments) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    crash_test, peer = arguments
    base = {"PATH": "/usr/bin:/bin", "HOME": tempfile.gettempdir(), "CRASH_TEST_BREADCRUMBS": "100",
            "CRASH_TEST_LAST_RUN": "1", "SWIFT_BACKTRACE": "enable=no"}
    programs = [
        ("crash-test, no reporter", [crash_test, "crash", "segfault"], {**base, "CRASH_REPORTER_DISABLED": "1"}),
        ("crash-test, swift-crash-reporter", [crash_test, "crash", "segfault"], base),
        ("the peer's bare C program", [os.path.join(peer, "peer-bare"), "crash", "{state}", "100"], base),
        ("sentry-native 0.16.3 inproc", [os.path.join(peer, "peer-bench"), "crash", "{state}", "100"], base),
    ]
    print(f"| independent check (Python, posix_spawn), {rounds} interleaved rounds a run | run 1 | run 2 | run 3 |")
    print("|---|---|---|---|")
    medians = []
    for _ in range(3):
        samples = [[] for _ in programs]
        for _ in range(rounds):
            for index, (_, argv, env) in enumerate(programs):
                samples[index].append(crash_once(argv, env))
        medians.append([statistics.median(values) for values in samples])
    for index, (label, _, _) in enumerate(programs):
        print(f"| {label}, median µs | " + " | ".join(f"{run[index]:.0f}" for run in medians) + " |")
    ours = [run[1] - run[0] for run in medians]
    theirs = [run[3] - run[2] for run in medians]
    shares = [o / t * 100 for o, t in zip(ours, theirs)]
    print()
    print(f"Independent check: our overhead {min(ours):.0f}–{max(ours):.0f} µs, sentry-native's "
          f"{min(theirs):.0f}–{max(theirs):.0f} µs; ours is {min(shares):.0f}–{max(shares):.0f} % of it, run by run.")


if __name__ == "__main__":
    main()
