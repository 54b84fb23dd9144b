#!/usr/bin/env python3
"""The executor watch's cost under load: the SwiftNIO example service (Examples/NIOService) with
the watch on and off (CRASH_REPORTER_WATCH_EXECUTORS), interleaved run by run, each run a fresh
process answering REQUESTS keep-alive `GET /` requests from one client on loopback. Prints a
Markdown table of requests per second and latency (median, p99), medians over the runs.

Usage: pool-watch-load.py SERVICE [RUNS] [REQUESTS]   (scripts/bench.sh runs it)
"""
import statistics
import sys

from service_load import run_once


def main():
    binary = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    requests = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    results = {True: [], False: []}
    for _ in range(runs):
        for watch in (False, True):
            results[watch].append(run_once(binary, {"CRASH_REPORTER_WATCH_EXECUTORS": "1" if watch else "0"}, requests))
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
