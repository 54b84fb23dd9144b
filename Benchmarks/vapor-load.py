#!/usr/bin/env python3
"""The reporter's cost per request in a Vapor service: the Vapor example (Examples/VaporService,
release) with the reporter on and off (CRASH_REPORTER_DISABLED=1: `start()` installs nothing, and
the route breadcrumb middleware and the breadcrumb log handler find it off with one atomic load),
interleaved run by run, each run a fresh process answering REQUESTS keep-alive
`GET /users/a@example.com/orders/12` requests (a route with two parameters: the middleware
records its pattern as the request comes in and its status and duration as it goes out) from one
client on loopback. Prints a Markdown table of requests per second, latency (median, p99) and the
service's CPU time per request, medians over the runs, and the difference: what the reporter
costs per request.

Usage: vapor-load.py SERVICE [RUNS] [REQUESTS]   (scripts/bench.sh runs it)
"""
import statistics
import sys

from service_load import run_once

PATH = "/users/a@example.com/orders/12"


def main():
    binary = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    requests = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    results = {True: [], False: []}
    for _ in range(runs):
        for on in (False, True):
            environment = {} if on else {"CRASH_REPORTER_DISABLED": "1"}
            results[on].append(run_once(binary, environment, requests, PATH))
    medians = {on: [statistics.median(row[i] for row in results[on]) for i in range(4)] for on in (False, True)}
    print(f"| the Vapor example, {requests} keep-alive `GET {PATH}`, {runs} runs each, interleaved "
          "| requests/s | latency median, µs | latency p99, µs | service CPU per request, µs |")
    print("|---|---:|---:|---:|---:|")
    for on in (False, True):
        label = "reporter on (2 breadcrumbs per request)" if on else "reporter off (`CRASH_REPORTER_DISABLED=1`)"
        columns = medians[on]
        print(f"| {label} | {columns[0]:.0f} | {columns[1]:.0f} | {columns[2]:.0f} | {columns[3]:.1f} |")
    on, off = medians[True], medians[False]
    print(f"| cost of the reporter per request | | {on[1] - off[1]:+.0f} | {on[2] - off[2]:+.0f} | {on[3] - off[3]:+.1f} |")


if __name__ == "__main__":
    main()
