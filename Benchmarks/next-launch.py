#!/usr/bin/env python3
"""The next launch after a crash, measured on a real service (scripts/bench.sh runs it).

    next-launch.py CRASHREPORT BENCHMARKS RUNS SERVICE...

For each SERVICE (a release build of an example service that takes its port as its first
argument, logs `listening on http://127.0.0.1:PORT` and crashes on `GET /crash/await`):
1. crash it once through the request, keeping the state directory it leaves;
2. relaunch it RUNS times with that one report pending and RUNS times with nothing pending,
   interleaved, each with CRASH_REPORTER_URL pointing at a receiver on loopback, for a fixed
   window; read from /proc its CPU time, peak RSS (VmHWM), RSS and private dirty memory at the end
   of the window (after the delivery pass), and when the report reached the receiver;
3. `crashreport show` the report RUNS times (wall time and peak RSS by /usr/bin/time);
4. the in-process symbolication of the same report, first and warm (BENCHMARKS --symbolication-only).

Prints markdown tables: medians with the range (min–max) of the runs.
"""
import http.server
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

WINDOW = 6.0  # seconds after the service listens
TICK = os.sysconf("SC_CLK_TCK")


class Receiver(http.server.BaseHTTPRequestHandler):
    received = []

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        Receiver.received.append(time.monotonic())
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def start_receiver():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def launch(service, state, environment):
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": state,
        "CRASH_REPORTER_DIR": state,
        "SWIFT_BACKTRACE": "enable=no",
    }
    env.update(environment)
    process = subprocess.Popen(
        [service, "0"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    for line in process.stderr:
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if match:
            threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
            return process, match.group(1), time.monotonic()
        if time.monotonic() > deadline:
            break
    process.kill()
    raise SystemExit(f"{service} did not listen")


def proc_status(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    kib = lambda key: int(fields.get(key, "0 kB").split()[0])
    dirty = 0
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            if line.startswith("Private_Dirty:"):
                dirty = int(line.split()[1])
    with open(f"/proc/{pid}/stat") as stat:
        parts = stat.read().rsplit(")", 1)[1].split()
    cpu = (int(parts[11]) + int(parts[12])) / TICK
    return {"hwm": kib("VmHWM") / 1024, "rss": kib("VmRSS") / 1024, "dirty": dirty / 1024, "cpu": cpu}


def crash_once(service, state, url):
    process, base, _ = launch(service, state, {"CRASH_REPORTER_URL": url})
    try:
        urllib.request.urlopen(base + "/crash/await", timeout=10)
    except Exception:
        pass
    process.wait(timeout=30)
    pending = os.path.join(state, "pending")
    reports = [name for name in os.listdir(pending) if name.endswith(".crash")] if os.path.isdir(pending) else []
    if len(reports) != 1:
        raise SystemExit(f"{service}: expected one report, found {reports}")
    return os.path.join(pending, reports[0])


def relaunch(service, template, pending, url):
    state = tempfile.mkdtemp(prefix="next-launch-")
    shutil.rmtree(state)
    shutil.copytree(template, state)
    if not pending:
        shutil.rmtree(os.path.join(state, "pending"))
        os.makedirs(os.path.join(state, "pending"))
    before = len(Receiver.received)
    process, _, listening = launch(service, state, {"CRASH_REPORTER_URL": url})
    time.sleep(WINDOW)
    figures = proc_status(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait()
    shutil.rmtree(state, ignore_errors=True)
    arrived = Receiver.received[before:]
    figures["delivered"] = (arrived[0] - listening) if arrived else None
    return figures


def spread(values, unit, digits=1):
    values = [v for v in values if v is not None]
    if not values:
        return "–"
    median = statistics.median(values)
    return f"{median:,.{digits}f} {unit} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"


def show(crashreport, report, runs):
    walls, peaks = [], []
    for _ in range(runs):
        timed = subprocess.run(
            ["/usr/bin/time", "-f", "%e %M", crashreport, "show", report],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={"PATH": "/usr/bin:/bin"})
        wall, peak = timed.stderr.strip().splitlines()[-1].split()
        walls.append(float(wall))
        peaks.append(int(peak) / 1024)
    return walls, peaks


def main():
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    crashreport, benchmarks, runs, services = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    server, url = start_receiver()
    print(f"Each launch watched for {WINDOW:.0f} s after it listens; {runs} launches of each kind, interleaved;")
    print("median (min–max). Peak RSS is VmHWM, RSS and private dirty are read at the end of the window,")
    print("after the delivery pass. `show` is `crashreport show` of the same report.")
    print()
    print("| service (binary) | launch | CPU | peak RSS | RSS after | private dirty after | delivered after |")
    print("|---|---|---:|---:|---:|---:|---:|")
    reports = []
    for service in services:
        template = tempfile.mkdtemp(prefix="next-launch-state-")
        report = crash_once(service, template, "http://127.0.0.1:9/")
        kept = tempfile.mktemp(suffix=".crash")
        shutil.copy(report, kept)
        reports.append((service, kept))
        rows = {True: [], False: []}
        for _ in range(runs):
            for pending in (True, False):
                rows[pending].append(relaunch(service, template, pending, url))
        size = os.path.getsize(service) / (1 << 20)
        name = f"{os.path.basename(service)} ({size:.0f} MiB)"
        for pending in (False, True):
            found = rows[pending]
            print(
                f"| {name} | {'one report pending' if pending else 'nothing pending'} "
                f"| {spread([f['cpu'] for f in found], 's', 2)} "
                f"| {spread([f['hwm'] for f in found], 'MiB')} "
                f"| {spread([f['rss'] for f in found], 'MiB')} "
                f"| {spread([f['dirty'] for f in found], 'MiB')} "
                f"| {spread([f['delivered'] for f in found], 's', 2) if pending else '–'} |")
        shutil.rmtree(template, ignore_errors=True)
    print()
    print("| report of | `crashreport show` wall | peak RSS |")
    print("|---|---:|---:|")
    for service, report in reports:
        walls, peaks = show(crashreport, report, runs)
        print(f"| {os.path.basename(service)} | {spread(walls, 's', 2)} | {spread(peaks, 'MiB')} |")
    for service, report in reports:
        print()
        print(f"In process, {os.path.basename(service)}'s report (first run: files opened; median: a second report):")
        print()
        output = subprocess.run([benchmarks, "--symbolication-only", report], capture_output=True, text=True).stdout
        print("\n".join(line for line in output.splitlines() if not line.startswith("## ")).strip())
        os.remove(report)
    server.shutdown()


if __name__ == "__main__":
    main()
