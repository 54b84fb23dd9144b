#!/usr/bin/env bash
# Builds the peer the benchmark measures beside this reporter: sentry-native's in-process backend
# (no transport) from the source tarball in ../shared/peers, with CMake from PyPI in a venv, and
# the benchmark's two small C programs (Benchmarks/Peer/peer-bench.c) against it: `peer-bench`
# with sentry-native, `peer-bare` the same program without it. Built once, cached under
# .build/peer; the peer's own code is never committed. Prints the directory with the programs, or
# nothing (with the reason on stderr) when ../shared/peers is not there. Sourced by nothing: run
# by scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=../shared/peers/sentry-native-0.16.3.tar.gz
peer=.build/peer
if [ ! -f "$tarball" ]; then
    echo "note: $tarball is not here: the benchmark skips sentry-native's rows" >&2
    exit 0
fi
source=Benchmarks/Peer/peer-bench.c
if [ ! -f "$peer/lib/libsentry.so" ]; then
    echo "Building sentry-native 0.16.3 (inproc, no transport) into $peer, once (about two minutes)…" >&2
    rm -rf "$peer"
    mkdir -p "$peer/src" "$peer/lib"
    python3 -m venv "$peer/venv" >&2
    "$peer/venv/bin/pip" install --quiet cmake >&2
    tar xzf "$tarball" -C "$peer/src" --strip-components=1
    "$peer/venv/bin/cmake" -S "$peer/src" -B "$peer/build" -DCMAKE_BUILD_TYPE=Release \
        -DSENTRY_BACKEND=inproc -DSENTRY_TRANSPORT=none -DSENTRY_BUILD_TESTS=OFF -DSENTRY_BUILD_EXAMPLES=OFF \
        >"$peer/cmake.log" 2>&1 || { tail -20 "$peer/cmake.log" >&2; exit 1; }
    "$peer/venv/bin/cmake" --build "$peer/build" -j2 >>"$peer/cmake.log" 2>&1 || { tail -20 "$peer/cmake.log" >&2; exit 1; }
    cp "$peer/build/libsentry.so" "$peer/lib/"
fi
if [ ! -x "$peer/bin/peer-bench" ] || [ "$source" -nt "$peer/bin/peer-bench" ]; then
    mkdir -p "$peer/bin"
    cc -O2 -o "$peer/bin/peer-bench" "$source" -I"$peer/src/include" -L"$peer/lib" -lsentry \
        -Wl,-rpath,"$(cd "$peer/lib" && pwd)" -lpthread
    cc -O2 -DPEER_BARE -o "$peer/bin/peer-bare" "$source" -lpthread
fi
cd "$peer/bin" && pwd
