"""One load run against an example service, shared by pool-watch-load.py and vapor-load.py.

`run_once` starts a fresh process of the service with a state directory of its own and the
environment given, waits for its "listening on http://127.0.0.1:PORT" line, warms it up, then
sends REQUESTS keep-alive `GET PATH` requests from one client on loopback. It returns the
requests per second, the median and p99 latency in µs, and the CPU time the whole service
process spent per request in µs (every thread's, from /proc/PID/task/*/schedstat, over the timed
requests only).
"""
import glob
import http.client
import re
import shutil
import subprocess
import tempfile
import threading
import time


def process_cpu_ns(pid):
    """The CPU time every thread of process `pid` has run, in ns (threads that ended are not counted)."""
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(path) as stat:
                total += int(stat.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


def run_once(binary, environment, requests, path="/"):
    home = tempfile.mkdtemp(prefix="service-load-")
    full = {
        "PATH": "/usr/bin:/bin",
        "HOME": home,
        "CRASH_REPORTER_DIR": home + "/state",
        "SWIFT_BACKTRACE": "enable=no",
    }
    full.update(environment)
    service = subprocess.Popen([binary], env=full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
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
        # A service may log every request: keep reading, or its pipe fills and it stops.
        threading.Thread(target=lambda: [None for _ in service.stderr], daemon=True).start()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for _ in range(50):  # warm-up
            connection.request("GET", path)
            connection.getresponse().read()
        latencies = []
        cpu_before = process_cpu_ns(service.pid)
        began = time.perf_counter()
        for _ in range(requests):
            start = time.perf_counter()
            connection.request("GET", path)
            connection.getresponse().read()
            latencies.append(time.perf_counter() - start)
        elapsed = time.perf_counter() - began
        cpu = process_cpu_ns(service.pid) - cpu_before
        latencies.sort()
        return (
            requests / elapsed,
            latencies[len(latencies) // 2] * 1e6,
            latencies[int(len(latencies) * 0.99)] * 1e6,
            cpu / requests / 1e3,
        )
    finally:
        service.kill()
        service.wait()
        shutil.rmtree(home, ignore_errors=True)
