#!/usr/bin/env python3
"""The assertions of the arm64 crash tests (scripts/test-aarch64.sh runs this).

Reads, for each test, what the script kept under <out>/reports/<test>/: the report as
`crashreport show --json` printed it, `crashreport show`'s text, the child's stdout (its `fact`
lines) and how the child ended with and without the reporter. Frames are named with the
driver's own symbol table (`nm -S`) and the main image's load bias from the report. Prints
`pass <test>` or `FAIL <test>: <why>` per test and `N passed, M failed` last.
"""
import json
import os
import re
import sys

SIGNALS = {"SIGTRAP": 5, "SIGABRT": 6, "SIGBUS": 7, "SIGSEGV": 11}
REGISTERS = [f"x{i}" for i in range(31)] + ["sp", "pc", "pstate"]


class Failure(Exception):
    pass


def expect(condition, why):
    if not condition:
        raise Failure(why)


class Symbols:
    def __init__(self, path):
        self.entries = []
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 4 and parts[2].lower() in ("t", "w"):
                    self.entries.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
        self.entries.sort()

    def name(self, address):
        for start, size, name in self.entries:
            if start <= address < start + size:
                return name
        return None

    def start(self, name):
        for start, _, entry in self.entries:
            if entry == name:
                return start
        raise Failure(f"no symbol {name} in the driver")


class Test:
    def __init__(self, out, name, symbols):
        self.name = name
        self.dir = os.path.join(out, "reports", name)
        self.symbols = symbols
        self.report = None
        path = os.path.join(self.dir, "report.json")
        if os.path.exists(path) and os.path.getsize(path) > 0:
            with open(path) as f:
                self.report = json.load(f)

    def text(self, file):
        path = os.path.join(self.dir, file)
        return open(path, errors="replace").read() if os.path.exists(path) else ""

    def status(self, which):
        text = self.text(f"status-{which}").strip()
        return int(text) if text else None

    def facts(self):
        return dict(m.groups() for m in re.finditer(r"^fact (\w+)=(\S*)$", self.text("stdout.txt"), re.M))

    def require_report(self, kind="crash"):
        expect(self.report is not None, f"no report read back ({self.text('show-json.stderr').strip()})")
        expect(self.report["kind"] == kind, f"kind {self.report['kind']}")
        show = self.text("show.txt")
        expect(show and "show failed" not in show, "`crashreport show` failed")
        return self.report

    def base(self):
        mains = [image for image in self.report["images"] if image.get("main")]
        expect(len(mains) == 1, "no main image")
        expect(mains[0]["path"].endswith("crash-driver"), f"main image {mains[0]['path']}")
        return int(mains[0]["base"], 16)

    def names(self, frames):
        """The driver's function of each frame (None outside it): a return address is looked up at ip - 1."""
        base = self.base()
        names = []
        for frame in frames:
            ip = int(frame["ip"], 16) - (1 if frame["trust"] == "cfi" else 0)
            names.append(self.symbols.name(ip - base))
        return names

    def crashed_thread(self):
        crashed = [t for t in self.report["threads"] if t.get("crashed")]
        expect(len(crashed) == 1, "not one crashed thread")
        return crashed[0]


def check_crash(test, signal, code_name, first=None, within=()):
    """A crash report of `signal`, the child ending as it does without the reporter."""
    report = test.require_report()
    crash = report["crash"]
    expect(crash["signal"]["name"] == signal, f"signal {crash['signal']['name']}")
    expect(crash["signal"]["number"] == SIGNALS[signal], f"signal number {crash['signal']['number']}")
    expect(crash["signal"]["code_name"] == code_name, f"code {crash['signal']['code_name']}")
    with_reporter, without = test.status("with-reporter"), test.status("without-reporter")
    expect(with_reporter == 128 + SIGNALS[signal], f"exit status {with_reporter} with the reporter")
    expect(without == with_reporter, f"exit status {with_reporter} with the reporter, {without} without")
    expect(signal in test.text("show.txt"), "`show` does not name the signal")
    names = test.names(crash["frames"])
    if first is not None:
        expect(names[0] == first, f"frame 0 is {names[0]}, not {first}: {names}")
    for name in within:
        expect(name in names, f"{name} not among the frames {names}")
    return report, crash, names


def check_registers(crash):
    registers = crash["registers"]
    expect(sorted(registers) == sorted(REGISTERS), f"registers named {sorted(registers)}")
    frame = crash["frames"][0]
    expect(frame["trust"] == "context", "frame 0 not from the context")
    expect(registers["pc"] == frame["ip"], f"pc {registers['pc']}, frame 0 at {frame['ip']}")
    expect(registers["sp"] == frame["sp"], f"sp {registers['sp']}, frame 0's sp {frame['sp']}")
    expect(int(registers["pstate"], 16) < 1 << 32, "pstate wider than 32 bits")


def test_segv(test):
    report, crash, names = check_crash(test, "SIGSEGV", "SEGV_MAPERR", "crash_segv", ("run", "main"))
    expect(crash["signal"]["address"] == "0x10", f"fault address {crash['signal']['address']}")
    expect(crash["frames_truncated"] is False and crash["unwind_error"] is None, "the walk stopped early")
    expect(names.index("main") == names.index("run") + 1, f"run then main: {names}")
    check_registers(crash)
    expect(report["threads"][0]["main"] is True, "not the main thread")
    # `show` symbolicates the aarch64 driver from its own symbol table, on the host.
    show = test.text("show.txt")
    for name in ("crash_segv + ", "run + ", "main + "):
        expect(name in show, f"`show` does not name {name.strip(' +')}")


def test_bus(test):
    _, crash, _ = check_crash(test, "SIGBUS", "BUS_ADRERR", "crash_bus", ("run", "main"))
    check_registers(crash)


def test_abort(test):
    _, crash, names = check_crash(test, "SIGABRT", "SI_TKILL", None, ("crash_abort", "run", "main"))
    expect(names[0] is None, "frame 0 not in the C library")
    check_registers(crash)


def test_brk(test):
    _, crash, _ = check_crash(test, "SIGTRAP", "TRAP_BRKPT", "crash_brk", ("run", "main"))
    check_registers(crash)
    registers = crash["registers"]
    expect(registers["pc"] == crash["signal"]["address"], f"pc {registers['pc']}, trap at {crash['signal']['address']}")
    for register, value in (("x0", "0xa0a0a0a0a0a0a0a"), ("x9", "0x909090909090909"), ("x28", "0x2828282828282828")):
        expect(registers[register] == value, f"{register} is {registers[register]}, not {value}")


def check_overflow(test, outermost, main):
    report, crash, names = check_crash(test, "SIGSEGV", "SEGV_ACCERR", "overflow")
    expect(crash["frames_truncated"] is True and crash["frames_omitted"] > 0, "no frames left out")
    at = crash["frames_omitted_at"]
    expect(all(name == "overflow" for name in names[:at]), f"innermost frames {names[:at]}")
    expect(outermost in names[at:], f"{outermost} not among the outermost frames {names[at:]}")
    expect(report["threads"][0]["main"] is main, "main flag")


def test_overflow_main(test):
    check_overflow(test, "main", True)


def test_overflow_thread(test):
    check_overflow(test, "overflow_thread_main", False)


def check_every_thread_answered(test, report, writer_listed=True):
    """Every thread of the program answered with its stack. The emulator's own thread (qemu-user
    runs one beside the program's, listed in /proc/self/task and named after it, with every signal
    blocked) is the one exception: it says `signal_blocked`, as a thread that blocks the signal would."""
    threads = report["threads"]
    total = report["threads_total"] - (0 if writer_listed else 1)  # a snapshot's writer is not listed
    expect(len(threads) == total, f"{len(threads)} threads of {report['threads_total']}")
    emulator = [t for t in threads if t["name"] == "qemu-aarch64" and not t["main"]]
    expect(len(emulator) <= 1 and all(t["unwind_error"] == "signal_blocked" for t in emulator), "emulator's thread")
    threads = [t for t in threads if t not in emulator]
    for thread in threads:
        label = thread["name"] or thread["id"]
        expect(thread["unwind_error"] is None, f"{label}: {thread['unwind_error']}")
        registers = thread["registers"]
        expect(registers is not None and sorted(registers) == sorted(REGISTERS), f"{label}: registers")
        expect(len(thread["frames"]) > 1, f"{label}: {len(thread['frames'])} frames")
    return {thread["name"]: test.names(thread["frames"]) for thread in threads}


def test_threads(test):
    report, _, _ = check_crash(test, "SIGSEGV", "SEGV_MAPERR", "crash_segv", ("crasher_main",))
    expect(test.crashed_thread()["name"] == "crasher", "the crashed thread's name")
    names = check_every_thread_answered(test, report)
    expect(len(names) >= 6, f"threads {sorted(names)}")  # main, crasher, three parked, the monitor
    for i in range(3):
        expect("parked_main" in names.get(f"parked-{i}", []), f"parked-{i}: {names.get(f'parked-{i}')}")
    main = [t for t in report["threads"] if t["main"]]
    expect(len(main) == 1 and "main" in test.names(main[0]["frames"]), "the main thread's stack")
    expect("crash-monitor" in names, "the monitor thread")


def test_snapshot(test):
    report = test.require_report("snapshot")
    facts = test.facts()
    expect(test.status("with-reporter") == 0, f"exit status {test.status('with-reporter')}")
    expect("went on" in test.text("stdout.txt") and facts.get("snapshot") == "0", "the process did not go on")
    expect(report["report_id"] == facts.get("snapshot_id"), "report id")
    expect(report["snapshot"]["reason"] == "aarch64 snapshot", "reason")
    check_every_thread_answered(test, report, writer_listed=False)
    main = [t for t in report["threads"] if t["main"]]
    expect(len(main) == 1, "no main thread")
    names = test.names(main[0]["frames"])
    expect("run_snapshot" in names and "main" in names, f"the main thread's frames {names}")


def test_breadcrumbs(test):
    report, _, _ = check_crash(test, "SIGSEGV", "SEGV_MAPERR", "crash_segv", ("run_breadcrumbs", "main"))
    ring = report["breadcrumbs"]
    items = ring["items"]
    expect(ring["capacity"] == 64, f"capacity {ring['capacity']}")
    expect(len(items) + ring["torn"] == 64, f"{len(items)} items and {ring['torn']} torn of 64")
    expect(ring["torn"] <= 4, f"{ring['torn']} torn with four writers")
    last = {}
    for item in items:
        match = re.fullmatch(r"w([0-3])", item["category"])
        expect(match is not None, f"category {item['category']!r}")
        k = match.group(1)
        message = re.fullmatch(r"n=(\d+)", item["message"])
        expect(message is not None, f"message {item['message']!r}")
        n = int(message.group(1))
        expect(item["data"] == {"thread": k, "n": str(n)}, f"data {item['data']} of {item['message']}")
        expect(n > last.get(k, -1), f"w{k}: {n} after {last.get(k)}")
        last[k] = n
    expect(last, "no breadcrumbs")  # which writers' crumbs are the newest 64 is the scheduler's choice


def check_async(test, function):
    report, crash, names = check_crash(test, "SIGSEGV", "SEGV_MAPERR", function, ("run_async", "main"))
    facts = test.facts()
    thread = test.crashed_thread()
    frames = thread.get("async_frames")
    expect(frames is not None, "no async frames")
    base = test.base()
    expected = ["scr_test_resume_inner", "scr_test_resume_outer", "scr_test_task_completion"]
    ips = [int(frame["ip"], 16) - base for frame in frames]
    expect(ips == [test.symbols.start(name) for name in expected], f"resume points {[hex(ip) for ip in ips]}")
    expect([frame["sp"] for frame in frames] == [facts.get(f"context{i}") for i in range(3)], "contexts")
    expect(all(frame["trust"] == "async" for frame in frames), "trust")
    expect(thread["async_frames_at"] == 0, f"async_frames_at {thread['async_frames_at']}")
    expect(test.text("show.txt").count("[async]") == 3, "`show` does not list the awaiting functions")


def test_async_record(test):
    check_async(test, "scr_test_async_frame_record")


def test_async_register(test):
    check_async(test, "scr_test_async_register_leaf")


def test_async_damaged(test):
    check_crash(test, "SIGSEGV", "SEGV_MAPERR", "scr_test_async_frame_record", ("run_async", "main"))
    thread = test.crashed_thread()
    expect(not thread.get("async_frames"), f"async frames from a damaged chain: {thread.get('async_frames')}")


def check_probe(test, kind, signal=None):
    log = test.text("probe.log").splitlines()
    expect("probe loaded writer-hook=1" in log, f"the probe did not load or find the hook: {log[:2]}")
    violations = [line for line in log if line.startswith("violation ")]
    expect(not violations, f"{violations}")
    test.require_report(kind)
    if signal is not None:
        expect(test.status("with-reporter") == 128 + SIGNALS[signal], "exit status")


def test_probe_self_test(test):
    log = test.text("probe.log").splitlines()
    for function in ("malloc", "free", "pthread_mutex_lock"):
        expect(any(line.startswith(f"violation {function} on=altstack") for line in log), f"{function} not flagged")


TESTS = {
    "segv": test_segv,
    "bus": test_bus,
    "abort": test_abort,
    "brk": test_brk,
    "overflow-main": test_overflow_main,
    "overflow-thread": test_overflow_thread,
    "threads": test_threads,
    "snapshot": test_snapshot,
    "breadcrumbs": test_breadcrumbs,
    "async-record": test_async_record,
    "async-register": test_async_register,
    "async-damaged": test_async_damaged,
    "probe-self-test": test_probe_self_test,
    "probe-segv": lambda test: check_probe(test, "crash", "SIGSEGV"),
    "probe-abort": lambda test: check_probe(test, "crash", "SIGABRT"),
    "probe-threads": lambda test: check_probe(test, "crash", "SIGSEGV"),
    "probe-snapshot": lambda test: check_probe(test, "snapshot"),
}


def main():
    out, symbol_file = sys.argv[1], sys.argv[2]
    symbols = Symbols(symbol_file)
    passed = failed = 0
    for name, check in TESTS.items():
        try:
            check(Test(out, name, symbols))
            print(f"pass {name}")
            passed += 1
        except Failure as failure:
            print(f"FAIL {name}: {failure}")
            failed += 1
        except Exception as error:  # a report without a member the test reads
            print(f"FAIL {name}: {type(error).__name__}: {error}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
