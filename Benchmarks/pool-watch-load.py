#!/usr/bin/env python3
"""The executor watch's cost under load: the SwiftNIO example service (Examples/NIOService) with
the watch on and off (CRASH_REPORTER_WATCH_EXECUTORS), interleaved run by run, each run a fresh
process answering REQUESTS keep-alive `GET /` requests from one client on loopback. Prints a
Markdown table of requests per second and latency (median, p99), medians over the runs.

Usage: pool-watch-load.py SERVICE [RUNS] [REQUESTS]   (scripts/bench.sh runs it)
"""
import http.client
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def run_once(binary, watch, requests):
    home = tempfile.mkdtemp(prefix="watch-load-")
    environment = {
        "PATH": "/usr/bin:/bin",
        "HOME": home,
        "CRASH_REPORTER_DIR": home + "/state",
        "SWIFT_BACKTRACE": "enable=no",
        "CRASH_REPORTER_WATCH_EXECUTORS": "1" if watch else "0",
    }
    service = subprocess.Popen([binary], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        deadline = time.monotonic() + 60
        while port is None and time.monotonic() < deadline:
            line = service.stderr.readline()
            if not line:
                break
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if found:
                port = int(found.group(1))
        if port is None:
            raise SystemExit(f"{binary} did not say where it listens")
        # The service logs every request: keep reading, or its pipe fills and it stops.
        threading.Thread(target=lambda: [None for _ in service.stderr], daemon=True).start()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for _ in range(50):  # warm-up
            connection.request("GET", "/")
            connection.getresponse().read()
        latencies = []
        began = time.perf_counter()
        for _ in range(requests):
            start = time.perf_counter()
            connection.request("GET", "/")
            connection.getresponse().read()
            latencies.append(time.perf_counter() - start)
        elapsed = time.perf_counter() - began
        latencies.sort()
        return requests / elapsed, latencies[len(latencies) // 2] * 1e6, latencies[int(len(latencies) * 0.99)] * 1e6
    finally:
        service.kill()
        service.wait()
        shutil.rmtree(home, ignore_errors=True)


def main():
    binary = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    requests = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    results = {True: [], False: []}
    for _ in range(runs):
        for watch in (False, True):
            results[watch].append(run_once(binary, watch, requests))
    print(f"| the SwiftNIO example, {requests} keep-alive requests, {runs} runs each, interleaved "
          "| requests/s | latency median, µs | latency p99, µs |")
    print("|---|---:|---:|---:|")
    for watch in (False, True):
        rows = results[watch]
        columns = [statistics.median(row[i] for row in rows) for i in range(3)]
        label = "executor watch on" if watch else "executor watch off"
        print(f"| {label} | {columns[0]:.0f} | {columns[1]:.0f} | {columns[2]:.0f} |")


if __name__ == "__main__":
    main()
